// Mail other services hand to identity (the reader's weekly recap): identity owns the mailer and its
// configuration, so they ask over the bus. The message is queued as a job, so the asking service is
// answered at once and delivery is retried like sign-in mail.
import { enqueueJob } from '@murmur/jobs';
import type { mail } from '@murmur/contracts';
import type { IdentityContext } from './context.js';
import { relayedMailSendJob } from './jobs.js';

export async function relayMail(
  ctx: IdentityContext,
  message: mail.MailMessage,
): Promise<{ accepted: true }> {
  await enqueueJob(ctx.jobs, relayedMailSendJob, message);
  return { accepted: true };
}

export async function sendRelayedMail(ctx: IdentityContext, message: mail.MailMessage): Promise<void> {
  const messageId = await ctx.mailer.send(message);
  ctx.logger.info({ messageId }, 'relayed email sent');
}
