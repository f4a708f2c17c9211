import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  expect((await h.addApp('Beta', { topic: 'org.murmur.beta' })).statusCode).toBe(201);
});
afterAll(() => h.stop());

const info = async (token: string, query: string) => {
  const res = await h.request('GET', `/users/push/info?${query}`, { token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { token: string; app_name: string; push_env: string }[]).map(
    (d) => `${d.token.slice(-2)} ${d.app_name} ${d.push_env}`,
  );
};

test('info filters by push_env, app_name and device_token, oldest first; [] when none', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  expect(await info(ada.token, 'push_env=production')).toEqual([]);
  await h.register(ada, devHex(0x11));
  h.clock.advance(1000);
  await h.register(ada, devHex(0x12));
  await h.register(ada, devHex(0x13), 'push_env=sandbox');
  await h.register(ada, devHex(0x14), 'push_env=production&app_name=Beta');
  await h.register(bob, devHex(0x21));

  expect(await info(ada.token, 'push_env=production')).toEqual([
    '11 default production',
    '12 default production',
  ]);
  expect(await info(ada.token, 'push_env=sandbox')).toEqual(['13 default sandbox']);
  expect(await info(ada.token, 'push_env=production&app_name=Beta')).toEqual(['14 Beta production']);
  expect(await info(ada.token, `push_env=production&device_token=${devHex(0x12)}`)).toEqual([
    '12 default production',
  ]);
  // Other users' devices never appear, not even by naming their token.
  expect(await info(ada.token, `push_env=production&device_token=${devHex(0x21)}`)).toEqual([]);
  expect(await info(bob.token, 'push_env=production')).toEqual(['21 default production']);
});

test('an upper-case hex token and its lower-case form are the same device', async () => {
  const cy = h.user('cy');
  const upper = devHex(0xabc).toUpperCase();
  const first = await h.register(cy, upper);
  expect(first.statusCode).toBe(201);
  expect(first.json().device.token).toBe(devHex(0xabc));
  expect((await h.register(cy, devHex(0xabc))).statusCode).toBe(200);
  expect(await info(cy.token, `push_env=production&device_token=${upper}`)).toHaveLength(1);
  const gone = await h.request('POST', `/users/push/unregister?device_token=${upper}&push_env=production`, {
    token: cy.token,
  });
  expect(gone.statusCode).toBe(200);
  expect(await info(cy.token, 'push_env=production')).toEqual([]);
});
