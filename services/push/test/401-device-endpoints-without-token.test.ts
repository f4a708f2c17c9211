import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const q = `device_token=${devHex(1)}&push_env=production`;

test.each([
  ['GET', `/users/push/info?${q}`],
  ['POST', `/users/push/register?${q}`],
  ['POST', `/users/push/unregister?${q}`],
])('%s %s without a token → 401 {"error"}', async (method, path) => {
  const res = await h.request(method, path);
  expect(res.statusCode).toBe(401);
  expect(Object.keys(res.json())).toEqual(['error']);
  expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
});

test.each([
  ['GET', `/users/push/info?${q}`],
  ['POST', `/users/push/register?${q}`],
  ['POST', `/users/push/unregister?${q}`],
])('%s %s with a bad token → 401 {"error"}', async (method, path) => {
  const res = await h.request(method, path, { token: 'not-a-token' });
  expect(res.statusCode).toBe(401);
  expect(Object.keys(res.json())).toEqual(['error']);
});
