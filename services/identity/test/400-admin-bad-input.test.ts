// Bad operator input → 400 naming the parameter (404 for bad ids), and no stored data changes.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { collectionCounts, startIdentity, type Harness } from './harness.js';

let h: Harness;
let before: Record<string, number>;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada');
  before = await collectionCounts(h.store);
});
afterAll(() => h.stop());

const cases: Array<[string, string, string, unknown, RegExp]> = [
  ['missing username', 'POST', '/admin/users', { email: 'x@example.com' }, /^username: is required$/],
  ['missing email', 'POST', '/admin/users', { username: 'xavier' }, /^email: is required$/],
  [
    'invalid username',
    'POST',
    '/admin/users',
    { username: 'x y', email: 'x@example.com' },
    /^username: must be/,
  ],
  [
    'reserved username',
    'POST',
    '/admin/users',
    { username: 'indieauth', email: 'x@example.com' },
    /^username: "indieauth" is reserved$/,
  ],
  [
    'invalid email',
    'POST',
    '/admin/users',
    { username: 'xavier', email: 'x@@example.com' },
    /^email: must be a valid email/,
  ],
  [
    'username of the wrong type',
    'POST',
    '/admin/users',
    { username: ['a', 1], email: 'x@example.com' },
    /^username: /,
  ],
  [
    'name too long',
    'POST',
    '/admin/users',
    { username: 'xavier', email: 'x@example.com', name: 'n'.repeat(101) },
    /^name: must be at most 100/,
  ],
  [
    'redirect_url not absolute',
    'POST',
    '/admin/apps',
    { app_name: 'A', redirect_url: '/signin' },
    /^redirect_url: must be an absolute URL$/,
  ],
  [
    'redirect_url javascript:',
    'POST',
    '/admin/apps',
    { app_name: 'A', redirect_url: 'javascript:alert(1)' },
    /^redirect_url: must not use the javascript: scheme$/,
  ],
  [
    'redirect_url with a fragment',
    'POST',
    '/admin/apps',
    { app_name: 'A', redirect_url: 'https://a.example/#x' },
    /^redirect_url: must not have a fragment$/,
  ],
  ['missing app_name', 'POST', '/admin/apps', { redirect_url: 'app://signin' }, /^app_name: is required$/],
  [
    'app_name with markup',
    'POST',
    '/admin/apps',
    { app_name: '<b>A</b>', redirect_url: 'app://signin' },
    /^app_name: /,
  ],
  ['PATCH with nothing to change', 'PATCH', '/admin/users/1', {}, /^Nothing to change/],
  ['PATCH avatar not a URL', 'PATCH', '/admin/users/1', { avatar: 'javascript:alert(1)' }, /^avatar: /],
  ['PATCH plans empty', 'PATCH', '/admin/users/1', { plans: [] }, /^plans: /],
  ['PATCH plan malformed', 'PATCH', '/admin/users/1', { plan: 'Pro Plan!' }, /^plan: /],
  ['limit not an integer', 'GET', '/admin/users?limit=ten', undefined, /^limit: /],
  ['offset negative', 'GET', '/admin/users?offset=-1', undefined, /^offset: /],
  ['revoke without token', 'POST', '/admin/tokens/revoke', {}, /^token: is required$/],
];

describe('admin API with bad input → 400', () => {
  test.each(cases)('%s', async (_case, method, url, payload, message) => {
    const res = await h.admin(method, url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  test('malformed JSON → 400', async () => {
    const res = await h.admin('POST', '/admin/users', '{"username":');
    expect(res.statusCode).toBe(400);
  });
});

describe('admin API with unknown or malformed ids → 404', () => {
  test.each([
    ['GET', '/admin/users/999'],
    ['GET', '/admin/users/abc'],
    ['GET', '/admin/users/1.5'],
    ['GET', '/admin/users/-1'],
    ['GET', '/admin/users/0'],
    ['PATCH', '/admin/users/999'],
    ['POST', '/admin/users/999/tokens'],
    ['GET', '/admin/users/999/tokens'],
    ['DELETE', '/admin/tokens/999'],
    ['DELETE', '/admin/apps/999'],
    ['GET', '/admin/nothing-here'],
  ] as const)('%s %s', async (method, url) => {
    const res = await h.admin(method, url, method === 'PATCH' ? { name: 'x' } : undefined);
    expect(res.statusCode).toBe(404);
    expect(typeof res.json().error).toBe('string');
  });

  test('revoking an unknown raw token → 404', async () => {
    const res = await h.admin('POST', '/admin/tokens/revoke', { token: 'C'.repeat(43) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No such token.' });
  });
});

test('none of the bad requests changed stored data', async () => {
  expect(await collectionCounts(h.store)).toEqual(before);
  const user = (await h.admin('GET', '/admin/users/1')).json();
  expect(user).toMatchObject({ name: '', avatar: '', plan: 'free', plans: ['free'] });
});
