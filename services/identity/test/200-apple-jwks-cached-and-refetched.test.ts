// Apple's JWKS is fetched once and cached; an unknown kid refetches it, at most once a minute.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort } from '@murmur/testing';
import { makeKey, startFakeApple, type FakeApple } from './apple.js';
import { startIdentity, type Harness } from './harness.js';

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

const signIn = async (identityToken: string) =>
  (
    await h.inject({
      method: 'POST',
      url: '/account/apple',
      payload: { identity_token: identityToken, user_id: 'sub-1' },
    })
  ).statusCode;

describe('Apple JWKS cache', () => {
  test('several sign-ins share one fetch', async () => {
    for (let i = 0; i < 3; i++) expect(await signIn(await apple.token('sub-1'))).toBe(200);
    expect(apple.hits).toBe(1);
  });

  test('a rotated key is picked up by one refetch, but not more than once a minute', async () => {
    const rotated = await makeKey('apple-key-2');
    apple.published = [apple.key, rotated];

    // Within the minute of the first fetch: no refetch, the new kid is unknown → 401.
    expect(await signIn(await apple.token('sub-1', {}, rotated))).toBe(401);
    expect(apple.hits).toBe(1);

    h.clock.advance(61_000);
    expect(await signIn(await apple.token('sub-1', {}, rotated))).toBe(200);
    expect(apple.hits).toBe(2);

    // Forged kids right after a refetch do not cause more fetches.
    for (let i = 0; i < 3; i++)
      expect(await signIn(await apple.token('sub-1', {}, await makeKey(`forged-${i}`)))).toBe(401);
    expect(apple.hits).toBe(2);
  });
});

describe('Apple JWKS unreachable', () => {
  test('→ 503 with a message, not a 401 or 500', async () => {
    const down = await startIdentity({
      APPLE_JWKS_URL: `http://127.0.0.1:${await freePort()}/auth/keys`,
      APPLE_CLIENT_IDS: 'com.example.reader',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    });
    try {
      const res = await down.inject({
        method: 'POST',
        url: '/account/apple',
        payload: { identity_token: await apple.token('sub-1'), user_id: 'sub-1' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatch(/Apple/);
    } finally {
      await down.stop();
    }
  });
});
