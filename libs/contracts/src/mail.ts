// Mail that identity sends on behalf of other services (the reader's weekly recap). Identity owns the
// mailer and its configuration (MAIL_URL, MAIL_FROM); other services only hand over a message.
import { z } from 'zod';
import { defineRequest } from './bus.js';

export const MAX_MAIL_TEXT = 256 * 1024;
export const MAX_MAIL_HTML = 512 * 1024;

export const mailMessageSchema = z.object({
  /** One address, as identity.users.get returned it. */
  to: z
    .string()
    .min(3)
    .max(254)
    .regex(/^[^@\s]+@[^@\s]+$/),
  subject: z.string().min(1).max(200),
  text: z.string().max(MAX_MAIL_TEXT),
  /** A whole HTML document built with escaping; identity sends it as the text/html alternative. */
  html: z.string().max(MAX_MAIL_HTML),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

/**
 * Send (or queue for sending) one message through identity's mailer. `accepted: true` once identity
 * has taken responsibility for it (queued in its job queue or outbox); a failure is an error reply.
 */
export const mailSend = defineRequest(
  'identity',
  'mail',
  'send',
  mailMessageSchema,
  z.object({ accepted: z.literal(true) }),
);
