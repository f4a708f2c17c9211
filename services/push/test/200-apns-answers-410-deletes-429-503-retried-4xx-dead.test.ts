// The APNs answer table (docs/api/push.md, "Responses") against the local HTTP/2 stand-in.
import { afterAll, beforeEach, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
afterAll(() => h?.stop());
beforeEach(async () => {
  await h?.stop();
  h = await startHarness();
});

interface Entry {
  outcome: string;
  status: number;
  reason: string;
  attempt: number;
  device: string;
}

async function log(): Promise<Entry[]> {
  const res = await h.admin('GET', '/admin/push/log');
  expect(res.statusCode).toBe(200);
  return (res.json().deliveries as Entry[]).reverse();
}

const requestsFor = (n: number) => eventually(async () => (h.apns.requests.length >= n ? true : undefined));
const devices = async (token: string) =>
  (await h.request('GET', '/users/push/info?push_env=production', { token })).json() as unknown[];

async function oneDevice() {
  const ada = h.user('ada');
  await h.register(ada, devHex(1));
  await h.followEvent(h.user('bob'), ada);
  return ada;
}

test.each([
  [410, 'Unregistered'],
  [410, 'ExpiredToken'],
  [400, 'BadDeviceToken'],
])('%i %s deletes the device', async (status, reason) => {
  h.apns.answers.push({ status, reason });
  const ada = await oneDevice();
  await requestsFor(1);
  await h.settle();
  expect(await devices(ada.token)).toEqual([]);
  expect(await log()).toMatchObject([
    { outcome: 'removed', status, reason, device: `${devHex(1).slice(0, 8)}…` },
  ]);
});

test.each([
  [429, 'TooManyRequests'],
  [503, 'ServiceUnavailable'],
  [500, 'InternalServerError'],
])('%i %s is retried after a minute or more, then delivered', async (status, reason) => {
  h.apns.answers.push({ status, reason });
  const ada = await oneDevice();
  await requestsFor(1);
  await h.settle();
  h.clock.advance(59_000);
  await new Promise((r) => setTimeout(r, 150));
  expect(h.apns.requests).toHaveLength(1);
  h.clock.advance(61_000);
  await requestsFor(2);
  await h.settle();
  expect(await log()).toMatchObject([
    { outcome: 'retry', status, reason, attempt: 1 },
    { outcome: 'delivered', status: 200, attempt: 2 },
  ]);
  expect(await devices(ada.token)).toHaveLength(1);
});

test('429 five times: five attempts with growing waits, then dead', async () => {
  h.apns.answerFor = () => ({ status: 429, reason: 'TooManyRequests' });
  await oneDevice();
  for (let n = 1; n <= 5; n++) {
    await requestsFor(n);
    await h.settle();
    h.clock.advance(60 * 60_000);
  }
  await new Promise((r) => setTimeout(r, 150));
  expect(h.apns.requests).toHaveLength(5);
  expect((await log()).map((e) => e.outcome)).toEqual(['retry', 'retry', 'retry', 'retry', 'dead']);
});

test('a connection error (nothing listening) is retried like a 503', async () => {
  await h.stop();
  h = await startHarness({ env: { PUSH_APNS_PRODUCTION_URL: 'https://127.0.0.1:9' } });
  await oneDevice();
  const entries = await eventually(async () => {
    const got = await log();
    return got.length ? got : undefined;
  });
  expect(entries).toMatchObject([{ outcome: 'retry', status: 0, attempt: 1 }]);
});

test.each([
  [400, 'DeviceTokenNotForTopic'],
  [413, 'PayloadTooLarge'],
  [400, 'BadTopic'],
])('%i %s is not retried: dead, the device stays', async (status, reason) => {
  h.apns.answers.push({ status, reason });
  const ada = await oneDevice();
  await requestsFor(1);
  await h.settle();
  h.clock.advance(24 * 3_600_000);
  await new Promise((r) => setTimeout(r, 150));
  expect(h.apns.requests).toHaveLength(1);
  expect(await log()).toMatchObject([{ outcome: 'dead', status, reason }]);
  expect(await devices(ada.token)).toHaveLength(1);
});

test('403 ExpiredProviderToken: a new JWT is minted once and the send retried once → delivered', async () => {
  h.apns.answers.push({ status: 403, reason: 'ExpiredProviderToken' });
  await oneDevice();
  await requestsFor(2);
  await h.settle();
  const [first, second] = h.apns.requests;
  expect(second!.jwt!.raw).not.toBe(first!.jwt!.raw);
  expect(await log()).toMatchObject([{ outcome: 'delivered', status: 200 }]);
});

test('403 InvalidProviderToken twice: dead after one retry, no third request', async () => {
  h.apns.answers.push(
    { status: 403, reason: 'InvalidProviderToken' },
    { status: 403, reason: 'InvalidProviderToken' },
  );
  await oneDevice();
  await requestsFor(2);
  await h.settle();
  h.clock.advance(3_600_000);
  await new Promise((r) => setTimeout(r, 150));
  expect(h.apns.requests).toHaveLength(2);
  expect(await log()).toMatchObject([{ outcome: 'dead', status: 403, reason: 'InvalidProviderToken' }]);
});

test('credentials APNs keeps refusing: one replacement token per 20 minutes, not one per delivery', async () => {
  h.apns.answerFor = () => ({ status: 403, reason: 'InvalidProviderToken' });
  const ada = h.user('ada');
  await h.register(ada, devHex(1));
  await h.register(ada, devHex(2));
  await h.followEvent(h.user('bob'), ada);
  await requestsFor(3);
  await h.settle();
  // First token, one replacement; the second device's delivery does not sign a third.
  expect(h.ctx.apns.tokens.minted).toBe(2);
  expect(h.apns.requests.length).toBeLessThanOrEqual(4);
  expect((await log()).map((e) => e.outcome)).toEqual(['dead', 'dead']);
  // 20 minutes later a refusal may replace the token again.
  h.clock.advance(21 * 60_000);
  await h.followEvent(h.user('cy'), ada);
  await eventually(async () => ((await log()).length >= 4 ? true : undefined));
  expect(h.ctx.apns.tokens.minted).toBe(3);
});
