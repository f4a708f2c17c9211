import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const bad = async (method: string, path: string, mentions: string) => {
  const res = await h.request(method, path, { token: h.user('ada').token });
  expect(res.statusCode).toBe(400);
  expect(Object.keys(res.json())).toEqual(['error']);
  expect(res.json().error).toContain(mentions);
};

test.each(['register', 'unregister'])('%s: missing device_token or push_env → 400', async (action) => {
  await bad('POST', `/users/push/${action}?push_env=production`, 'device_token');
  await bad('POST', `/users/push/${action}?device_token=${devHex(1)}`, 'push_env');
  await bad('POST', `/users/push/${action}`, 'device_token');
});

test('info: missing push_env → 400', async () => {
  await bad('GET', '/users/push/info', 'push_env');
});

test.each([
  ['spaces', 'abcd efgh ijkl mnop qrst'],
  ['600 characters', 'a'.repeat(600)],
  ['15 characters', 'a'.repeat(15)],
  ['a slash', 'abcdefgh/ijklmnopq'],
])('a token with %s → 400 and nothing stored', async (_what, token) => {
  await bad(
    'POST',
    `/users/push/register?push_env=production&device_token=${encodeURIComponent(token)}`,
    'device_token',
  );
  await bad(
    'GET',
    `/users/push/info?push_env=production&device_token=${encodeURIComponent(token)}`,
    'device_token',
  );
  const info = await h.request('GET', '/users/push/info?push_env=production', { token: h.user('ada').token });
  expect(info.json()).toEqual([]);
});

test('unknown app_name → 400 "Unknown app_name." on all three', async () => {
  const q = `device_token=${devHex(1)}&push_env=production&app_name=Other`;
  for (const [method, action] of [
    ['POST', 'register'],
    ['POST', 'unregister'],
    ['GET', 'info'],
  ] as const) {
    const res = await h.request(method, `/users/push/${action}?${q}`, { token: h.user('ada').token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Unknown app_name.' });
  }
});

test('app names are matched exactly and at most 100 characters', async () => {
  await bad(
    'POST',
    `/users/push/register?device_token=${devHex(1)}&push_env=production&app_name=DEFAULT`,
    'app_name',
  );
  await bad(
    'POST',
    `/users/push/register?device_token=${devHex(1)}&push_env=production&app_name=${'x'.repeat(101)}`,
    'app_name',
  );
});

test('no app_name → the default app; a second app is used by name', async () => {
  const ada = h.user('ada');
  expect((await h.addApp('Beta', { topic: 'org.murmur.beta' })).statusCode).toBe(201);
  const plain = await h.register(ada, devHex(5));
  expect(plain.json().device.app_name).toBe('default');
  const named = await h.register(ada, devHex(5), 'push_env=production&app_name=Beta');
  expect(named.statusCode).toBe(201);
  expect(named.json().device.app_name).toBe('Beta');
});

test('a JSON array where one value is expected → 400 naming it, and nothing stored (a form may repeat)', async () => {
  const ada = h.user('ada');
  for (const body of [
    { device_token: [devHex(0x77)], push_env: 'production' },
    { device_token: devHex(0x77), push_env: ['production'] },
    { device_token: devHex(0x77), push_env: 'production', app_name: ['default'] },
  ]) {
    const res = await h.request('POST', '/users/push/register', { token: ada.token, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(
      `${Object.keys(body).find((k) => Array.isArray(body[k as keyof typeof body]))}: must be a string`,
    );
  }
  const info = await h.request('GET', `/users/push/info?push_env=production&device_token=${devHex(0x77)}`, {
    token: ada.token,
  });
  expect(info.json()).toEqual([]);
  const repeated = await h.request(
    'POST',
    `/users/push/register?device_token=${devHex(0x78)}&push_env=sandbox&push_env=production`,
    { token: ada.token },
  );
  expect(repeated.statusCode).toBe(201);
  expect(repeated.json().device.push_env).toBe('production');
});
