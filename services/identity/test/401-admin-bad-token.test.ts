// The operator API needs exactly MURMUR_ADMIN_TOKEN as a Bearer token; app tokens of users do not count.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ADMIN_TOKEN, collectionCounts, startIdentity, type Harness } from './harness.js';

let h: Harness;
let userToken: string;
beforeAll(async () => {
  h = await startIdentity();
  userToken = (await h.createUser('ada')).token;
});
afterAll(() => h.stop());

describe('admin API with a missing or wrong token', () => {
  test.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token-0123456789abcdef' }],
    ['the admin token with one character more', { authorization: `Bearer ${ADMIN_TOKEN}x` }],
    ['a prefix of the admin token', { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` }],
    [
      'Basic instead of Bearer',
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
    ],
    ['a user app token', () => ({ authorization: `Bearer ${userToken}` })],
  ])('%s → 401 {error} and nothing changes', async (_case, headersOrFn) => {
    const headers = typeof headersOrFn === 'function' ? headersOrFn() : headersOrFn;
    const before = await collectionCounts(h.store);
    const create = await h.inject({
      method: 'POST',
      url: '/admin/users',
      headers,
      payload: { username: 'eve', email: 'eve@example.com' },
    });
    expect(create.statusCode).toBe(401);
    expect(create.json().error).toMatch(/admin token/);
    expect((await h.inject({ method: 'GET', url: '/admin/users', headers })).statusCode).toBe(401);
    expect(await collectionCounts(h.store)).toEqual(before);
  });
});
