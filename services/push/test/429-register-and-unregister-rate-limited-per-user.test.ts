import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { PUSH_REGISTER_PER_MINUTE: '5' } });
});
afterAll(() => h.stop());

test('register and unregister share a per-user limit → 429 {"error"} with Retry-After; others unaffected', async () => {
  const ada = h.user('ada');
  for (let i = 1; i <= 3; i++) expect((await h.register(ada, devHex(i))).statusCode).toBe(201);
  const q = `device_token=${devHex(1)}&push_env=production`;
  expect((await h.request('POST', `/users/push/unregister?${q}`, { token: ada.token })).statusCode).toBe(200);
  expect((await h.register(ada, devHex(1))).statusCode).toBe(201);
  const limited = await h.register(ada, devHex(9));
  expect(limited.statusCode).toBe(429);
  expect(Object.keys(limited.json())).toEqual(['error']);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  // Nothing stored by the refused call.
  const info = await h.request('GET', `/users/push/info?push_env=production&device_token=${devHex(9)}`, {
    token: ada.token,
  });
  expect(info.statusCode).toBe(200);
  expect(info.json()).toEqual([]);
  // Another user has their own count.
  expect((await h.register(h.user('bob'), devHex(20))).statusCode).toBe(201);
  // A minute later the caller may register again.
  h.clock.advance(61_000);
  expect((await h.register(ada, devHex(9))).statusCode).toBe(201);
});
