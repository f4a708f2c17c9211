import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('one long-lived session is reused; after GOAWAY the next send opens a new one', async () => {
  const ada = h.user('ada');
  await h.register(ada, devHex(1));
  await h.followEvent(h.user('b1'), ada);
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.followEvent(h.user('b2'), ada);
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  expect(h.apns.requests[1]!.sessionId).toBe(h.apns.requests[0]!.sessionId);

  h.apns.goaway();
  await new Promise((r) => setTimeout(r, 100));
  await h.followEvent(h.user('b3'), ada);
  await eventually(async () => (h.apns.requests.length >= 3 ? true : undefined));
  await h.settle();
  expect(h.apns.requests[2]!.sessionId).not.toBe(h.apns.requests[0]!.sessionId);
  expect(h.ctx.apns.connects).toBe(2);
  const res = await h.admin('GET', '/admin/push/log');
  expect(res.json().deliveries.map((d: { outcome: string }) => d.outcome)).toEqual([
    'delivered',
    'delivered',
    'delivered',
  ]);
});
