// What identity logs along a whole sign-in never contains an email address or a token.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createLogger } from '@murmur/core';
import { followSigninLink, startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
const lines: string[] = [];
beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  h = await startIdentity({}, { logger: createLogger({ service: 'identity', level: 'debug', destination }) });
});
afterAll(() => h.stop());

describe('logs', () => {
  test('a sign-in by email, verify and web sign-in log no email address and no token', async () => {
    const { token: adminIssued } = await h.createUser('ada', 'ada.lovelace@example.com');
    const emailed = tokenFromMail(await h.signinMail('ada.lovelace@example.com'));
    const appToken = (await h.inject({ method: 'POST', url: `/account/verify?token=${emailed}` })).json()
      .token as string;
    await h.inject({ method: 'GET', url: '/account/me', headers: { authorization: `Bearer ${appToken}` } });
    const webToken = tokenFromMail(await h.signinMail('ada.lovelace@example.com'));
    await followSigninLink(h, `/account/signin/web?token=${webToken}`);
    await h.signin({ email: 'stranger@example.com' });

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(log).toContain('sign-in email sent');
    for (const secret of [
      'ada.lovelace@example.com',
      'stranger@example.com',
      adminIssued,
      emailed,
      appToken,
      webToken,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
