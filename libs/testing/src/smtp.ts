// A real SMTP server on 127.0.0.1 that keeps what it receives, so tests read the emails a service sends.
import { SMTPServer } from 'smtp-server';
import { readRawEmail } from '@murmur/core';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** Text of the message with quoted-printable soft breaks undone. */
  text: string;
  /** Every http(s) URL in the message, in order. */
  links: string[];
}

export interface SmtpCapture {
  url: string;
  port: number;
  messages: CapturedMail[];
  /** Resolves with the first message (already received or arriving later) that matches. */
  waitFor(match: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  stop(): Promise<void>;
}

function parseMail(from: string, to: string[], raw: string): CapturedMail {
  const { subject, text, links } = readRawEmail(raw);
  return { from, to, raw, subject, text, links };
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const waiters: Array<{ match: (m: CapturedMail) => boolean; resolve: (m: CapturedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((r) => r.address);
        const mail = parseMail(from, to, Buffer.concat(chunks).toString('utf8'));
        messages.push(mail);
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const w = {
          match,
          resolve: (m: CapturedMail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`no matching email within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
