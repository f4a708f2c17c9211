// POST /account/apple refuses every identity token that is not a valid RS256 token of Apple for us.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { SignJWT, UnsecuredJWT } from 'jose';
import { APPLE_ISS, CLIENT_ID, makeKey, startFakeApple, type FakeApple } from './apple.js';
import { collectionCounts, startIdentity, type Harness } from './harness.js';

let h: Harness;
let apple: FakeApple;
let before: Record<string, number>;
beforeAll(async () => {
  apple = await startFakeApple();
  h = await startIdentity(apple.env());
  // Warm the key cache with one good call, so later refusals are about the token, not the fetch.
  await h.inject({
    method: 'POST',
    url: '/account/apple',
    payload: { identity_token: await apple.token('warm-up'), user_id: 'warm-up' },
  });
  before = await collectionCounts(h.store);
});
afterAll(async () => {
  await h.stop();
  await apple.stop();
});

const SUB = 'apple-sub-9';
const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({ iss: APPLE_ISS, aud: CLIENT_ID, sub: SUB, iat: now(), exp: now() + 600 });

async function attempt(identityToken: string, userId = SUB) {
  const res = await h.inject({
    method: 'POST',
    url: '/account/apple',
    payload: { identity_token: identityToken, user_id: userId, username: 'mallory' },
  });
  return { status: res.statusCode, error: res.json().error as string };
}

describe('POST /account/apple with a bad identity token → 401', () => {
  test('signed by a key that is not in the JWKS', async () => {
    const stranger = await makeKey('apple-key-1'); // same kid, different key: the signature fails
    const res = await attempt(await apple.token(SUB, {}, stranger));
    expect(res.status).toBe(401);
    expect(res.error).toMatch(/identity_token/);
  });

  test('signed by a key with an unknown kid', async () => {
    const res = await attempt(await apple.token(SUB, {}, await makeKey('unknown-kid')));
    expect(res.status).toBe(401);
  });

  test('alg HS256 (even with the public key material as the secret)', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(apple.key.jwk));
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: apple.key.kid })
      .sign(secret);
    const res = await attempt(token);
    expect(res.status).toBe(401);
    expect(res.error).toMatch(/alg/i);
  });

  test('alg none', async () => {
    const res = await attempt(new UnsecuredJWT(claims()).encode());
    expect(res.status).toBe(401);
  });

  test('wrong iss', async () => {
    const res = await attempt(await apple.token(SUB, { iss: 'https://evil.example' }));
    expect(res.status).toBe(401);
    expect(res.error).toMatch(/iss/);
  });

  test('wrong aud', async () => {
    const res = await attempt(await apple.token(SUB, { aud: 'com.example.someone-else' }));
    expect(res.status).toBe(401);
    expect(res.error).toMatch(/aud/);
  });

  test('expired', async () => {
    const res = await attempt(await apple.token(SUB, { iat: now() - 7200, exp: now() - 3600 }));
    expect(res.status).toBe(401);
    expect(res.error).toMatch(/exp/);
  });

  test('sub different from user_id', async () => {
    const res = await attempt(await apple.token(SUB), 'another-sub');
    expect(res.status).toBe(401);
    expect(res.error).toBe('user_id does not match the identity_token.');
  });

  test('not a JWT at all', async () => {
    const res = await attempt('not.a.jwt');
    expect(res.status).toBe(401);
  });

  test('no account, token or sign-in was created by any of them', async () => {
    const after = await collectionCounts(h.store);
    expect({ ...after, ratelimits: 0 }).toEqual({ ...before, ratelimits: 0 });
  });
});
