// Without MAIL_URL, sign-in emails are written as .eml files to $DATA_DIR/outbox/.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { eventually, PUBLIC_URL, startIdentity, type Harness } from './harness.js';

let h: Harness;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'murmur-identity-'));
  h = await startIdentity({ MAIL_URL: '', DATA_DIR: dataDir });
  await h.createUser('ada', 'ada@example.com');
});
afterAll(async () => {
  await h.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('outbox mailer', () => {
  test('the sign-in email lands in the outbox with its link, readable by the owner only', async () => {
    expect((await h.signin({ email: 'ada@example.com' })).statusCode).toBe(200);
    const outbox = join(dataDir, 'outbox');
    const files = await eventually(async () => {
      const names = await readdir(outbox).catch(() => [] as string[]);
      return names.length > 0 ? names : undefined;
    });
    expect(files[0]).toMatch(/^\d+-[0-9a-f]+\.eml$/);
    const eml = (await readFile(join(outbox, files[0]!), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(eml).toMatch(/^Subject: Sign in to Murmur/m);
    expect(eml).toMatch(/^To: ada@example.com/m);
    expect(eml).toContain(`${PUBLIC_URL}/account/signin/web?token=`);
    expect((await stat(join(outbox, files[0]!))).mode & 0o777).toBe(0o600);
    expect(h.capture.messages).toHaveLength(0);
  });
});
