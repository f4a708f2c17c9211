import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('a new device → 201 success with the device; the same again → 200 with the original created_at', async () => {
  const ada = h.user('ada');
  const first = await h.register(ada, devHex(1));
  expect(first.statusCode).toBe(201);
  expect(first.json()).toEqual({
    status: 'success',
    message: 'Device registered.',
    device: {
      token: devHex(1),
      app_name: 'default',
      push_env: 'production',
      created_at: '2030-01-01T08:30:00+00:00',
    },
  });
  expect(first.json().device.created_at).toMatch(/\+00:00$/);

  h.clock.advance(3_600_000);
  const again = await h.register(ada, devHex(1));
  expect(again.statusCode).toBe(200);
  expect(again.json()).toEqual({
    status: 'success',
    message: 'Device already registered.',
    device: first.json().device,
  });
});

test('parameters may come as a form body or JSON', async () => {
  const ada = h.user('ada');
  const form = await h.request('POST', '/users/push/register', {
    token: ada.token,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `device_token=${devHex(2)}&push_env=sandbox`,
  });
  expect(form.statusCode).toBe(201);
  expect(form.json().device).toMatchObject({ token: devHex(2), push_env: 'sandbox' });
  const json = await h.request('POST', '/users/push/register', {
    token: ada.token,
    body: { device_token: devHex(3), push_env: 'production', app_name: 'default' },
  });
  expect(json.statusCode).toBe(201);
});

test('a token of other characters than hex is kept as sent (16–512 of A-Z a-z 0-9 : _ -)', async () => {
  const ada = h.user('ada');
  const fcmLike = 'dGhpcyBpcyBhbiBGQ00:APA91b_Xy-Z';
  const res = await h.register(ada, fcmLike);
  expect(res.statusCode).toBe(201);
  expect(res.json().device.token).toBe(fcmLike);
});
