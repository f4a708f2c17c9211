import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test("B registering A's token → 201 as new, and it leaves A's info", async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  await h.register(ada, devHex(1));
  h.clock.advance(60_000);
  const moved = await h.register(bob, devHex(1).toUpperCase());
  expect(moved.statusCode).toBe(201);
  expect(moved.json()).toMatchObject({ status: 'success', message: 'Device registered.' });
  expect(moved.json().device.created_at).toBe('2030-01-01T08:31:00+00:00');
  const adaInfo = await h.request('GET', '/users/push/info?push_env=production', { token: ada.token });
  expect(adaInfo.json()).toEqual([]);
  const bobInfo = await h.request('GET', '/users/push/info?push_env=production', { token: bob.token });
  expect(bobInfo.json()).toEqual([moved.json().device]);
  // Ada no longer holds it.
  const gone = await h.request(
    'POST',
    `/users/push/unregister?device_token=${devHex(1)}&push_env=production`,
    {
      token: ada.token,
    },
  );
  expect(gone.statusCode).toBe(404);
});
