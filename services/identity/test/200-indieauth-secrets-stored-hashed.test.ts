// IndieAuth's secrets — request ids, codes, access tokens, CSRF tokens — never sit in the store as
// they are: only hashes (and the CSRF key, from which no token can be read back).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { sha256Hex } from '@murmur/core';
import { storedText, type Harness } from './harness.js';
import { hiddenField, postForm, screen, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

describe('IndieAuth secrets in the store', () => {
  test('request id, CSRF token, code and access token appear only as hashes', async () => {
    const cookie = await signInBrowser(h, 'ada@example.com');
    const params = { client_id: 'https://app.test/', redirect_uri: 'https://app.test/cb', scope: 'create' };
    const page = await screen(h, params, cookie);
    const request = hiddenField(page.body, 'request');
    const csrf = hiddenField(page.body, 'csrf');
    const approved = await postForm(h, '/indieauth/approve', { request, csrf }, { cookie });
    const code = new URL(String(approved.headers.location)).searchParams.get('code')!;
    const token = (
      await postForm(h, '/indieauth/token', {
        code,
        client_id: params.client_id,
        redirect_uri: params.redirect_uri,
      })
    ).json().access_token as string;

    const stored = await storedText(h.store);
    for (const secret of [request, csrf, code, token]) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain(sha256Hex(code));
    expect(stored).toContain(sha256Hex(token));
  });
});
