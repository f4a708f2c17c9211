// Resource servers check tokens with GET /indieauth/token or RFC 7662 introspection; anyone holding a
// token can revoke it, and a revoked token stops working at once everywhere (the bus event).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity } from '@murmur/contracts';
import type { Harness } from './harness.js';
import { authorizationCode, postForm, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

const CLIENT = 'https://reader.test/';
const REDIRECT = 'https://reader.test/cb';
let h: Harness;
let cookie: string;
let appToken: string;

beforeAll(async () => {
  h = await startIndieAuthIdentity();
  appToken = (await h.createUser('ada', 'ada@example.com')).token;
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(() => h.stop());

async function newToken(scope: string): Promise<string> {
  const code = await authorizationCode(h, cookie, { client_id: CLIENT, redirect_uri: REDIRECT, scope });
  const res = await postForm(h, '/indieauth/token', { code, client_id: CLIENT, redirect_uri: REDIRECT });
  return res.json().access_token as string;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const verifyGet = (token?: string) =>
  h.inject({ url: '/indieauth/token', ...(token === undefined ? {} : { headers: bearer(token) }) });
const introspect = (token: string, caller?: string) =>
  postForm(h, '/indieauth/introspect', { token }, caller === undefined ? {} : bearer(caller));

describe('GET /indieauth/token', () => {
  test('an IndieAuth token → me, client_id, scope, profile', async () => {
    const res = await verifyGet(await newToken('create read'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      me: 'http://murmur.test/ada/',
      client_id: CLIENT,
      scope: 'create read',
      profile: { name: 'ada', url: 'http://murmur.test/ada/', photo: expect.any(String), nickname: 'ada' },
    });
  });

  test('an app token → same shape, client_id "" and every scope', async () => {
    const res = await verifyGet(appToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ client_id: '', scope: identity.SCOPES.join(' ') });
  });

  test('no token, an unknown one → 401 invalid_token with WWW-Authenticate: Bearer', async () => {
    for (const res of [await verifyGet(), await verifyGet('nope')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });
});

describe('POST /indieauth/introspect', () => {
  test('a live token → active: true (a boolean) with me, client_id, scope, iat (an integer)', async () => {
    const token = await newToken('create');
    const res = await introspect(token, appToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      active: true,
      me: 'http://murmur.test/ada/',
      client_id: CLIENT,
      scope: 'create',
      iat: expect.any(Number),
    });
    expect(Number.isInteger(body.iat)).toBe(true);
    expect(Math.abs(body.iat - Date.now() / 1000)).toBeLessThan(60);
  });

  test('unknown and revoked tokens → exactly {"active":false}', async () => {
    const revoked = await newToken('read');
    await postForm(h, '/indieauth/revoke', { token: revoked });
    for (const token of ['unknown', revoked]) {
      const res = await introspect(token, appToken);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('{"active":false}');
    }
  });

  test('without a valid caller token → 401', async () => {
    const token = await newToken('read');
    expect((await introspect(token)).statusCode).toBe(401);
    expect((await introspect(token, 'made-up')).statusCode).toBe(401);
  });
});

describe('revocation', () => {
  test('POST /indieauth/revoke answers 200 for an unknown token', async () => {
    const res = await postForm(h, '/indieauth/revoke', { token: 'never-issued' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  test('a revoked token is refused by the bus answer and by a cached auth hook at once', async () => {
    const token = await newToken('create');
    // The platform's hook (as in every service) caches a positive answer for seconds.
    expect((await h.inject({ url: '/account/me', headers: bearer(token) })).statusCode).toBe(200);
    expect((await h.inject({ url: '/account/me', headers: bearer(token) })).statusCode).toBe(200);
    const seen: string[] = [];
    const listener = await h.bus.listen(identity.tokenRevoked, async (event) => {
      seen.push(event.data.tokenHash);
    });
    try {
      expect((await postForm(h, '/indieauth/token', { action: 'revoke', token })).statusCode).toBe(200);
      const deadline = Date.now() + 2000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toHaveLength(1);
      expect((await h.inject({ url: '/account/me', headers: bearer(token) })).statusCode).toBe(401);
      expect(await h.bus.request(identity.tokenVerify, { token })).toEqual({ active: false });
      expect((await verifyGet(token)).statusCode).toBe(401);
    } finally {
      await listener.unsubscribe();
    }
  });

  test('revoking an app token through the revocation endpoint works too', async () => {
    const { token } = (await h.admin('POST', '/admin/users/1/tokens')).json();
    await postForm(h, '/indieauth/revoke', { token });
    expect((await verifyGet(token)).statusCode).toBe(401);
  });
});
