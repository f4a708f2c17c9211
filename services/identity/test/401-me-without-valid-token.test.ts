// GET /account/me goes through the platform auth hook: no token or a bad one → 401.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.stop());

describe('GET /account/me', () => {
  test.each([
    ['no Authorization header', {}],
    ['an unknown token', { authorization: 'Bearer unknown-token' }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
  ])('%s → 401 {error} with WWW-Authenticate', async (_case, headers) => {
    const res = await h.inject({ method: 'GET', url: '/account/me', headers });
    expect(res.statusCode).toBe(401);
    expect(typeof res.json().error).toBe('string');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  test('a valid token → the account without its token', async () => {
    const { token } = await h.createUser('ada');
    const res = await h.inject({
      method: 'GET',
      url: '/account/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: 'ada', has_inkwell: true });
    expect(res.json().token).toBeUndefined();
  });
});
