// Secrets are stored only as SHA-256: no raw app token, sign-in token or session id is in any document.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { sha256Hex } from '@murmur/core';
import { startFakeApple, type FakeApple } from './apple.js';
import { followSigninLink, startIdentity, storedText, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
let apple: FakeApple;
beforeAll(async () => {
  apple = await startFakeApple();
  h = await startIdentity(apple.env());
});
afterAll(async () => {
  await h.stop();
  await apple.stop();
});

describe('stored secrets', () => {
  test('every kind of token appears in the store only as its hash', async () => {
    const secrets: string[] = [];
    const created = await h.createUser('ada', 'ada@example.com');
    secrets.push(created.token);
    secrets.push((await h.admin('POST', `/admin/users/${created.id}/tokens`)).json().token);

    const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
    secrets.push(emailed, (await h.verify(emailed)).json().token);

    const webToken = tokenFromMail(await h.signinMail('ada@example.com'));
    const web = await followSigninLink(h, `/account/signin/web?token=${webToken}`);
    const sessionId = /murmur_session=([^;]+)/.exec(String(web.headers['set-cookie']))![1]!;
    secrets.push(webToken, sessionId);

    const signup = await h.inject({
      method: 'POST',
      url: '/account/apple',
      payload: { identity_token: await apple.token('sub-1'), user_id: 'sub-1' },
    });
    const appleSignin = await h.inject({
      method: 'POST',
      url: '/account/apple',
      payload: { identity_token: await apple.token('sub-2'), user_id: 'sub-2', username: 'grace' },
    });
    secrets.push(signup.json().token, appleSignin.json().token);

    expect(secrets.every((s) => /^[A-Za-z0-9_-]{43}$/.test(s))).toBe(true);
    const stored = await storedText(h.store);
    for (const secret of secrets) {
      expect(stored).not.toContain(secret);
    }
    // …while their hashes are what identity looks up.
    expect(stored).toContain(sha256Hex(created.token));
    expect(stored).toContain(sha256Hex(sessionId));
  });
});
