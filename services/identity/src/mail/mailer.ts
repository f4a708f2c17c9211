// Outgoing mail. With MAIL_URL set, messages go to that SMTP server; without it they are written as
// .eml files to $DATA_DIR/outbox/ so a single-machine install works (and can be inspected) with no
// mail server. Recipients and message bodies hold sign-in links, so neither is ever logged.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '@murmur/core';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves with the Message-ID once the message is handed over (or written). */
  send(message: MailMessage): Promise<string>;
  close(): void;
}

export interface MailerOptions {
  mailUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
  /** Names the outbox files in time order. */
  now: () => Date;
}

export function createMailer(options: MailerOptions): Mailer {
  return options.mailUrl ? smtpMailer(options.mailUrl, options) : outboxMailer(options);
}

/** SMTP errors quote recipients and server replies; what gets logged or stored is only this. */
export class MailDeliveryError extends Error {
  constructor(cause: unknown) {
    const e = cause as { code?: unknown; responseCode?: unknown };
    const code = typeof e?.code === 'string' ? e.code : 'unknown';
    const status = typeof e?.responseCode === 'number' ? ` ${e.responseCode}` : '';
    super(`mail delivery failed (${code}${status})`);
    this.name = 'MailDeliveryError';
  }
}

function smtpMailer(mailUrl: string, { from }: MailerOptions): Mailer {
  const transport = nodemailer.createTransport(mailUrl);
  return {
    async send(message) {
      try {
        return (await transport.sendMail({ from, ...message })).messageId;
      } catch (err) {
        throw new MailDeliveryError(err);
      }
    },
    close: () => transport.close(),
  };
}

function outboxMailer({ from, outboxDir, logger, now }: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true });
      const file = join(outboxDir, `${now().getTime()}-${randomBytes(6).toString('hex')}.eml`);
      // The file holds a live sign-in link: readable by the service's user only.
      await writeFile(file, info.message, { mode: 0o600 });
      logger.info({ file }, 'mail written to the outbox');
      return info.messageId;
    },
    close: () => transport.close(),
  };
}
