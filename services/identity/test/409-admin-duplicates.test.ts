// Taken usernames, emails and app names → 409 naming what is taken; nothing is created.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { collectionCounts, startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
  await h.registerApp('Reader', 'app://signin');
});
afterAll(() => h.stop());

describe('duplicates in the admin API → 409', () => {
  test.each([
    ['the same username', { username: 'ada', email: 'other@example.com' }, /username: "ada" is taken/],
    [
      'the username in another case',
      { username: 'ADA', email: 'other@example.com' },
      /username: "ada" is taken/,
    ],
    ['the same email in another case', { username: 'ada2', email: 'ADA@EXAMPLE.COM' }, /^email: /],
  ])('%s', async (_case, payload, message) => {
    const before = await collectionCounts(h.store);
    const res = await h.admin('POST', '/admin/users', payload);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(message);
    const after = await collectionCounts(h.store);
    expect([after.users, after.app_tokens]).toEqual([before.users, before.app_tokens]);
  });

  test('the same app_name', async () => {
    const res = await h.admin('POST', '/admin/apps', { app_name: 'Reader', redirect_url: 'app://other' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'app_name: "Reader" is already registered' });
    expect((await h.admin('GET', '/admin/apps')).json().apps).toHaveLength(1);
  });
});
