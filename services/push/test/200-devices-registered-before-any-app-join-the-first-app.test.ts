import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ app: false });
});
afterAll(() => h.stop());

test('with no app registered, devices register under "default" and join the first app once it exists', async () => {
  const ada = h.user('ada');
  const early = await h.register(ada, devHex(1));
  expect(early.statusCode).toBe(201);
  expect(early.json().device.app_name).toBe('default');
  expect((await h.register(ada, devHex(1), 'push_env=production&app_name=default')).statusCode).toBe(200);

  expect((await h.addApp('Murmur')).statusCode).toBe(201);
  const info = await h.request('GET', '/users/push/info?push_env=production', { token: ada.token });
  expect(info.json()).toEqual([{ ...early.json().device, app_name: 'Murmur' }]);
  // The next launch's registration is the same record (200, original created_at), not a second one.
  const again = await h.register(ada, devHex(1));
  expect(again.statusCode).toBe(200);
  expect(again.json().device.created_at).toBe(early.json().device.created_at);
  // "default" is no app name any more.
  expect((await h.register(ada, devHex(1), 'push_env=production&app_name=default')).statusCode).toBe(400);

  await h.followEvent(h.user('bob'), ada);
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.settle();
  expect(h.apns.requests).toHaveLength(1);
});
