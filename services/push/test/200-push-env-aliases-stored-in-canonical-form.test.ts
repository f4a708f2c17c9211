import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('push_env=prod is stored and returned as production, dev as sandbox', async () => {
  const ada = h.user('ada');
  const prod = await h.register(ada, devHex(1), 'push_env=prod');
  expect(prod.statusCode).toBe(201);
  expect(prod.json().device.push_env).toBe('production');
  const dev = await h.register(ada, devHex(2), 'push_env=dev');
  expect(dev.json().device.push_env).toBe('sandbox');

  // The alias and the canonical name are one environment.
  expect((await h.register(ada, devHex(1), 'push_env=production')).statusCode).toBe(200);
  const info = await h.request('GET', '/users/push/info?push_env=dev', { token: ada.token });
  expect(info.json()).toEqual([dev.json().device]);
});

test('push_env=beta → 400 {"error"}', async () => {
  const ada = h.user('ada');
  for (const res of [
    await h.register(ada, devHex(3), 'push_env=beta'),
    await h.request('GET', '/users/push/info?push_env=beta', { token: ada.token }),
  ]) {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringContaining('push_env') });
  }
});
