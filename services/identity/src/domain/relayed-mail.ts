// Mail other services hand to identity (the reader's weekly recap): identity owns the mailer and its
// configuration, so they ask over the bus. The message is queued as a job, so the asking service is
// answered at once and delivery is retried like sign-in mail.
import { mail } from '@murmur/contracts';
import type { Subscription } from '@murmur/platform';
import type { Mailer } from '../mail/mailer.js';
import type { IdentityContext } from './context.js';

export const RELAYED_MAIL_JOB = 'mail.relay';

export function answerMailRequests(ctx: IdentityContext): Promise<Subscription> {
  return ctx.bus.handle(mail.mailSend, async (message) => {
    await ctx.jobs.enqueue(RELAYED_MAIL_JOB, message);
    return { accepted: true as const };
  });
}

export async function sendRelayedMail(ctx: IdentityContext, mailer: Mailer, payload: unknown): Promise<void> {
  const message = mail.mailMessageSchema.parse(payload);
  const messageId = await mailer.send(message);
  ctx.logger.info({ messageId }, 'relayed email sent');
}
