// Delivers a message another service handed over (the reader's weekly recap). A failure means that
// email arrives late: the job is retried with backoff, and after the last attempt the recipient
// simply does not get that one message (the asking service was told it was accepted).
import { mail } from '@murmur/contracts';
import { defineJob } from '@murmur/platform';
import type { IdentityContext } from '../domain/context.js';
import { sendRelayedMail } from '../domain/relayed-mail.js';

export const relayedMailSendJob = defineJob({
  name: 'identity.relayed-mail.send',
  // Jobs queued by versions before the job had its service-qualified name.
  formerNames: ['mail.relay'],
  payload: mail.mailMessageSchema,
  options: { concurrency: 2 },
  handle: (ctx: IdentityContext, message): Promise<void> => sendRelayedMail(ctx, message),
});
