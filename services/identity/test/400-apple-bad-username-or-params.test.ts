// POST /account/apple: missing parameters, and usernames that are taken, reserved or malformed → 400.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startFakeApple, type FakeApple } from './apple.js';
import { collectionCounts, startIdentity, type Harness } from './harness.js';

let h: Harness;
let apple: FakeApple;
beforeAll(async () => {
  apple = await startFakeApple();
  h = await startIdentity(apple.env());
  await h.createUser('ada');
});
afterAll(async () => {
  await h.stop();
  await apple.stop();
});

const post = (payload: Record<string, unknown>) =>
  h.inject({ method: 'POST', url: '/account/apple', payload });

describe('POST /account/apple → 400', () => {
  test.each([
    ['identity_token', { user_id: 'x' }],
    ['user_id', { identity_token: 'x.y.z' }],
  ])('missing %s → 400 naming it', async (param, payload) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: `${param}: is required` });
  });

  test.each([
    ['taken (case-insensitively)', 'ADA', /"ada" is taken/],
    ['reserved', 'account', /"account" is reserved/],
    ['reserved', 'xmlrpc', /"xmlrpc" is reserved/],
    ['starting with a digit', '1ada', /must be 1 to 30 characters/],
    ['with a dash', 'ada-l', /must be 1 to 30 characters/],
    ['31 characters', `a${'b'.repeat(30)}`, /must be 1 to 30 characters/],
  ])('a username %s → 400 naming username', async (_case, username, message) => {
    const before = await collectionCounts(h.store);
    const res = await post({ identity_token: await apple.token('new-sub'), user_id: 'new-sub', username });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect(res.json().error).toMatch(/^username: /);
    const after = await collectionCounts(h.store);
    expect(after.users).toBe(before.users);
    expect(after.signin_tokens).toBe(before.signin_tokens);
  });
});

describe('Sign in with Apple not configured', () => {
  test('APPLE_CLIENT_IDS empty → 400 saying so, and no JWKS fetch', async () => {
    const bare = await startIdentity({ APPLE_JWKS_URL: apple.jwksUrl, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    try {
      const hits = apple.hits;
      const res = await bare.inject({
        method: 'POST',
        url: '/account/apple',
        payload: { identity_token: await apple.token('s'), user_id: 's' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/not configured/);
      expect(apple.hits).toBe(hits);
    } finally {
      await bare.stop();
    }
  });
});
