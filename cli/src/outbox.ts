// Without MAIL_URL, identity writes each email into DATA_DIR/outbox/. This reads them back for the
// person running Murmur on one machine: `murmur outbox` shows the newest, `--link` prints only its link.
import { readRawEmail } from '@murmur/core';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandIo } from './commands.js';
import { UsageError } from './commands.js';

export function showOutbox(
  dataDir: string,
  flags: Record<string, string | boolean | undefined>,
  io: CommandIo,
): void {
  const dir = join(dataDir, 'outbox');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
    : [];
  if (files.length === 0)
    throw new UsageError(`no emails in ${dir} (with MAIL_URL set, mail goes to that server instead)`);
  const count = typeof flags.last === 'string' ? Number(flags.last) : 1;
  if (!Number.isInteger(count) || count < 1) throw new UsageError('--last must be a positive whole number');
  const newest = files.slice(-count).reverse();
  for (const file of newest) {
    const mail = readRawEmail(readFileSync(join(dir, file), 'utf8'));
    if (flags.link === true) {
      const link = mail.links.find((l) => l.includes('token='));
      if (link) io.out(link);
      continue;
    }
    io.out(`${file}\n  To: ${mail.to.join(', ')}\n  Subject: ${mail.subject}`);
    for (const link of [...new Set(mail.links)]) io.out(`  ${link}`);
  }
}
