// Delivers a message another service handed over (the reader's weekly recap). A failure means that
// email arrives late: the job is retried with backoff, and after the last attempt the recipient
// simply does not get that one message (the asking service was told it was accepted).
import { handleJob } from '@murmur/jobs';
import type { IdentityContext } from '../domain/context.js';
import { relayedMailSendJob } from '../domain/jobs.js';
import { sendRelayedMail } from '../domain/relayed-mail.js';

export const relayedMailSendJobDefinition = handleJob(
  relayedMailSendJob,
  (ctx: IdentityContext, message): Promise<void> => sendRelayedMail(ctx, message),
);
