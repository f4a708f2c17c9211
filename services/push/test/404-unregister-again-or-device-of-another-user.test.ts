import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const unregister = (token: string, query: string) =>
  h.request('POST', `/users/push/unregister?${query}`, { token });

test('unregister → 200 {status, message}; again → 404 {"status":"error", …}', async () => {
  const ada = h.user('ada');
  await h.register(ada, devHex(1));
  const q = `device_token=${devHex(1)}&push_env=production`;
  const first = await unregister(ada.token, q);
  expect(first.statusCode).toBe(200);
  expect(first.json()).toEqual({ status: 'success', message: 'Device unregistered.' });
  const again = await unregister(ada.token, q);
  expect(again.statusCode).toBe(404);
  expect(again.json()).toEqual({ status: 'error', message: 'Device not registered.' });
});

test('another user cannot unregister my device (404), and it stays registered', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  await h.register(ada, devHex(2));
  const q = `device_token=${devHex(2)}&push_env=production`;
  const res = await unregister(bob.token, q);
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual({ status: 'error', message: 'Device not registered.' });
  const info = await h.request('GET', `/users/push/info?${q}`, { token: ada.token });
  expect(info.json()).toHaveLength(1);
});

test('the same token in another environment is another record (404 there)', async () => {
  const ada = h.user('ada');
  await h.register(ada, devHex(3));
  const res = await unregister(ada.token, `device_token=${devHex(3)}&push_env=sandbox`);
  expect(res.statusCode).toBe(404);
});
