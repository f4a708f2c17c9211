// Once the redirect_uri is known to be the client's (here: on the client_id's own origin), a bad
// response_type or PKCE parameter goes back to the client as an OAuth error on its redirect_uri, with
// the state and iss, and the redirect_uri's own query kept. (A redirect_uri that is not the client's
// gets a page instead: 400-auth-screen-errors-of-unverified-clients-are-pages.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { pkcePair, screen, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
});
afterAll(() => h.stop());

const BASE = { client_id: 'https://app.test/', redirect_uri: 'https://app.test/cb?keep=1', state: 'a b&c=d' };

async function expectRedirectError(params: Record<string, string>, error: string) {
  const res = await screen(h, { ...BASE, ...params });
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe('https://app.test/cb');
  expect(location.searchParams.get('keep')).toBe('1');
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('state')).toBe('a b&c=d');
  expect(location.searchParams.get('iss')).toBe('http://murmur.test/');
  expect(location.searchParams.has('code')).toBe(false);
}

describe('GET /indieauth/auth → 302 with an error', () => {
  test('response_type=token → unsupported_response_type', async () => {
    await expectRedirectError({ response_type: 'token' }, 'unsupported_response_type');
  });

  test('code_challenge_method=plain → invalid_request', async () => {
    const { verifier } = pkcePair();
    await expectRedirectError(
      { code_challenge: verifier.slice(0, 43), code_challenge_method: 'plain' },
      'invalid_request',
    );
  });

  test('a challenge without a method → invalid_request', async () => {
    await expectRedirectError({ code_challenge: pkcePair().challenge }, 'invalid_request');
  });

  test('a method without a challenge → invalid_request', async () => {
    await expectRedirectError({ code_challenge_method: 'S256' }, 'invalid_request');
  });

  test('a challenge that is not 43 base64url characters → invalid_request', async () => {
    await expectRedirectError({ code_challenge: 'abc', code_challenge_method: 'S256' }, 'invalid_request');
    await expectRedirectError(
      { code_challenge: `${'a'.repeat(42)}=`, code_challenge_method: 'S256' },
      'invalid_request',
    );
  });

  test('no state sent → none returned', async () => {
    const res = await screen(h, {
      client_id: BASE.client_id,
      redirect_uri: 'https://app.test/cb',
      response_type: 'x',
    });
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.has('state')).toBe(false);
    expect(location.searchParams.get('iss')).toBe('http://murmur.test/');
  });

  test('a valid S256 challenge with response_type code → the screen (200)', async () => {
    const res = await screen(h, {
      ...BASE,
      response_type: 'code',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expect(res.statusCode).toBe(200);
  });
});
