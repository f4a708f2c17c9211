// The jobs identity's domain queues, declared without their handlers (docs/service-template.md, `jobs/`):
// the domain imports this file to enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { mail } from '@murmur/contracts';
import { declareJob } from '@murmur/jobs';

const signinEmailPayload = z.object({
  userId: z.number().int().positive(),
  appName: z.string().nullable(),
  redirectUrl: z.string().nullable(),
  isMobile: z.boolean(),
  /** A same-origin path the web sign-in returns to (the IndieAuth screen); absent in older jobs. */
  returnTo: z.string().nullable().optional(),
});
export type SigninEmailJob = z.output<typeof signinEmailPayload>;

export const signinEmailSendJob = declareJob({
  name: 'identity.signin-email.send',
  // Jobs queued by versions before the job had its service-qualified name.
  formerNames: ['signin.mail'],
  payload: signinEmailPayload,
  options: { concurrency: 4 },
});

export const relayedMailSendJob = declareJob({
  name: 'identity.relayed-mail.send',
  // Jobs queued by versions before the job had its service-qualified name.
  formerNames: ['mail.relay'],
  payload: mail.mailMessageSchema,
  options: { concurrency: 2 },
});
