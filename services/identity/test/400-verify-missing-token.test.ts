// POST /account/verify without any token, or with a malformed one.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.stop());

describe('POST /account/verify without a token', () => {
  test('no token and no Bearer header → 400 "token is required"', async () => {
    const res = await h.inject({ method: 'POST', url: '/account/verify' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'token is required' });
  });

  test('an empty token → 400 "token is required"', async () => {
    const res = await h.inject({ method: 'POST', url: '/account/verify', payload: { token: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'token is required' });
  });

  test('a token that is not a string → 400 naming token', async () => {
    const res = await h.inject({ method: 'POST', url: '/account/verify', payload: { token: 12345 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^token: /);
  });

  test('an Authorization header that is not Bearer → 400 "token is required"', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/account/verify',
      headers: { authorization: 'Basic YWRhOnB3' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'token is required' });
  });
});
