// Sends one sign-in email. A failure means the person's link does not arrive: the job is retried with
// backoff, and after the last attempt they have to ask again (the sign-in request itself was already
// answered 200, so nothing tells them). The token is made inside the job, so the raw token never
// sits in the queue; a run after an expired lease mails a second, equally valid link.
import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { IdentityContext } from '../domain/context.js';
import { sendSigninEmail } from '../domain/signin.js';

const payload = z.object({
  userId: z.number().int().positive(),
  appName: z.string().nullable(),
  redirectUrl: z.string().nullable(),
  isMobile: z.boolean(),
  /** A same-origin path the web sign-in returns to (the IndieAuth screen); absent in older jobs. */
  returnTo: z.string().nullable().optional(),
});
export type SigninEmailJob = z.output<typeof payload>;

export const signinEmailSendJob = defineJob({
  name: 'identity.signin-email.send',
  // Jobs queued by versions before the job had its service-qualified name.
  formerNames: ['signin.mail'],
  payload,
  options: { concurrency: 4 },
  handle: (ctx: IdentityContext, job): Promise<void> => sendSigninEmail(ctx, job),
});
