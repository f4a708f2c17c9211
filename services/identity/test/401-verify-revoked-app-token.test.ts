// A revoked app token stops working at /account/verify and at every auth-hooked endpoint (/account/me).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.stop());

const me = (token: string) =>
  h.inject({ method: 'GET', url: '/account/me', headers: { authorization: `Bearer ${token}` } });

describe('revoked app tokens', () => {
  test('verify returns the same token until revocation, then 401; /account/me follows at once', async () => {
    const { token } = await h.createUser('ada');
    expect((await h.verify(token)).json().token).toBe(token);
    // Warm the auth cache, so the 401 below proves the revocation event cleared it.
    expect((await me(token)).statusCode).toBe(200);

    expect((await h.admin('POST', '/admin/tokens/revoke', { token })).statusCode).toBe(200);

    const verify = await h.verify(token);
    expect(verify.statusCode).toBe(401);
    expect(verify.json()).toEqual({ error: 'Token is not valid.' });
    const after = await me(token);
    expect(after.statusCode).toBe(401);
    expect(typeof after.json().error).toBe('string');
  });

  test("revoking one token leaves the user's other tokens working", async () => {
    const { id, token } = await h.createUser('bob');
    const second = (await h.admin('POST', `/admin/users/${id}/tokens`, { label: 'laptop' })).json();
    expect((await h.admin('DELETE', `/admin/tokens/${second.id}`)).statusCode).toBe(200);
    expect((await h.verify(second.token)).statusCode).toBe(401);
    expect((await h.verify(token)).statusCode).toBe(200);
  });
});
