import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ separateSandbox: true });
});
afterAll(() => h.stop());

test('production devices go to the production host, sandbox devices to the sandbox host', async () => {
  const ada = h.user('ada');
  await h.register(ada, devHex(1), 'push_env=prod');
  await h.register(ada, devHex(2), 'push_env=dev');
  await h.followEvent(h.user('bob'), ada);
  // Two HTTP/2 sessions to open, each with its TLS handshake and signed token: with the whole suite on
  // two cores this took over the default 5 s once (a fresh-clone CI run). A wait, not a speed target.
  await eventually(
    async () => (h.apns.requests.length + h.sandbox.requests.length >= 2 ? true : undefined),
    15_000,
  );
  await h.settle();
  expect(h.apns.requests.map((r) => r.token)).toEqual([devHex(1)]);
  expect(h.sandbox.requests.map((r) => r.token)).toEqual([devHex(2)]);
});

test('an app registered for production only: its sandbox devices are not sent to (dead, NoCredentials…)', async () => {
  expect((await h.addApp('ProdOnly', { environments: 'production' })).statusCode).toBe(201);
  const cy = h.user('cy');
  await h.register(cy, devHex(3), 'push_env=sandbox&app_name=ProdOnly');
  const before = h.sandbox.requests.length;
  await h.followEvent(h.user('bob'), cy);
  const entry = await eventually(async () => {
    const res = await h.admin('GET', `/admin/push/log?user_id=${cy.id}`);
    return res.json().deliveries[0];
  });
  expect(entry).toMatchObject({ outcome: 'dead', reason: 'NoCredentialsForsandbox', app_name: 'ProdOnly' });
  expect(h.sandbox.requests.length).toBe(before);
});
