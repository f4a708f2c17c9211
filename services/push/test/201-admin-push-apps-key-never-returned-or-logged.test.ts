import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createLogger } from '@murmur/core';
import { eventually } from '@murmur/testing';
import { makeTestKey } from './apns-stand-in.js';
import { ADMIN_TOKEN, devHex, KEY_ID, startHarness, TEAM_ID, TOPIC, type Harness } from './harness.js';

let h: Harness;
let logged = '';
beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _enc, done) {
      logged += String(chunk);
      done();
    },
  });
  h = await startHarness({
    app: false,
    logger: createLogger({ service: 'push', level: 'trace', destination }),
  });
});
afterAll(() => h.stop());

/** The base64 body of a PEM: what must never show up anywhere. */
const keyBody = (pem: string) =>
  pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .join('');

test('PUT /admin/push/apps/{name} → 201 the app without its key; again → 200; listed without keys', async () => {
  const created = await h.addApp('Murmur', { environments: 'production,sandbox', default: true });
  expect(created.statusCode).toBe(201);
  expect(created.json()).toEqual({
    name: 'Murmur',
    team_id: TEAM_ID,
    key_id: KEY_ID,
    topic: TOPIC,
    environments: ['production', 'sandbox'],
    default: true,
    created_at: '2030-01-01T08:30:00+00:00',
    updated_at: '2030-01-01T08:30:00+00:00',
  });
  h.clock.advance(60_000);
  const replaced = await h.addApp('Murmur', { environments: ['production'] });
  expect(replaced.statusCode).toBe(200);
  expect(replaced.json()).toMatchObject({
    environments: ['production'],
    default: true,
    updated_at: '2030-01-01T08:31:00+00:00',
  });
  const list = await h.admin('GET', '/admin/push/apps');
  expect(list.statusCode).toBe(200);
  expect(list.json().apps.map((a: { name: string }) => a.name)).toEqual(['Murmur']);
  for (const res of [created, replaced, list]) {
    expect(res.body).not.toContain(keyBody(h.key.pem).slice(0, 40));
    expect(res.body).not.toContain('PRIVATE KEY');
  }
});

test('no app_name → the default app registered by the operator', async () => {
  const res = await h.register(h.user('ada'), devHex(1));
  expect(res.json().device.app_name).toBe('Murmur');
});

test('the key, the JWT and the device token never reach the logs', async () => {
  const ada = h.user('ada');
  await h.followEvent(h.user('bob'), ada);
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.settle();
  // A bad key is refused without being echoed.
  const other = makeTestKey();
  const bad = await h.addApp('Broken', { key: other.pem.replace('MIG', 'XXX') });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error).toMatch(/^key: /);
  expect(bad.body).not.toContain(keyBody(other.pem).slice(10, 40));
  expect(logged).toContain('push app credentials stored');
  expect(logged).not.toContain(keyBody(h.key.pem).slice(0, 40));
  expect(logged).not.toContain(keyBody(other.pem).slice(10, 40));
  expect(logged).not.toContain(h.apns.requests[0]!.jwt!.raw.slice(0, 40));
  expect(logged).not.toContain(ADMIN_TOKEN);
  expect(logged).toContain('device_token=***');
  expect(logged).not.toContain(devHex(1));
});

test('the admin API needs the admin token: 401 without it, 401 with a user token', async () => {
  const none = await h.request('GET', '/admin/push/apps');
  expect(none.statusCode).toBe(401);
  const user = await h.request('GET', '/admin/push/apps', { token: h.user('ada').token });
  expect(user.statusCode).toBe(401);
});

test('bad app fields → 400 naming them', async () => {
  for (const [body, param] of [
    [{ team_id: 'has space' }, 'team_id'],
    [{ key_id: '' }, 'key_id'],
    [{ topic: 'no/slash' }, 'topic'],
    [{ environments: 'production,beta' }, 'environments'],
  ] as const) {
    const res = await h.addApp('X', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(param);
  }
});

test('DELETE /admin/push/apps/{name} → 200, then 404; its name is unknown to clients again', async () => {
  expect((await h.addApp('Beta')).statusCode).toBe(201);
  expect((await h.register(h.user('ada'), devHex(2), 'push_env=production&app_name=Beta')).statusCode).toBe(
    201,
  );
  expect((await h.admin('DELETE', '/admin/push/apps/Beta')).statusCode).toBe(200);
  const again = await h.admin('DELETE', '/admin/push/apps/Beta');
  expect(again.statusCode).toBe(404);
  expect(again.json()).toEqual({ error: 'No such push app.' });
  const res = await h.register(h.user('ada'), devHex(3), 'push_env=production&app_name=Beta');
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ error: 'Unknown app_name.' });
});
