import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, KEY_ID, startHarness, TEAM_ID, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function notify(n: number) {
  await h.followEvent(h.user(`fan${n}`), h.user('ada'));
  await eventually(async () => (h.apns.requests.length >= n ? true : undefined));
  // The delivery job finishes (its answer logged) before the test moves the clock: moved by minutes
  // while the job still ran, its 60 s lease would lapse and the queue would rightly send again to a
  // device whose answer was not yet logged, a second request that shifts every later index.
  await h.settle();
  expect(h.apns.requests).toHaveLength(n);
  return h.apns.requests[n - 1]!.jwt!;
}

test('ES256 with kid and iss; the same JWT for sends within 20 minutes; a new one after 45 minutes', async () => {
  await h.register(h.user('ada'), devHex(1));
  const first = await notify(1);
  expect(first).toMatchObject({ alg: 'ES256', kid: KEY_ID, iss: TEAM_ID });
  h.clock.advance(10 * 60_000);
  expect((await notify(2)).raw).toBe(first.raw);
  h.clock.advance(10 * 60_000);
  expect((await notify(3)).raw).toBe(first.raw);
  h.clock.advance(20 * 60_000); // 40 minutes: still the same
  expect((await notify(4)).raw).toBe(first.raw);
  h.clock.advance(6 * 60_000); // 46 minutes: renewed
  const renewed = await notify(5);
  expect(renewed.raw).not.toBe(first.raw);
  expect(renewed.iat).toBe(Math.floor(h.clock.nowMs() / 1000));
  expect(h.ctx.apns.tokens.minted).toBe(2);
});

test('many concurrent sends share one JWT and one HTTP/2 session', async () => {
  const ada = h.user('ada');
  for (let i = 2; i <= 20; i++) await h.register(ada, devHex(i));
  const before = h.apns.requests.length;
  const minted = h.ctx.apns.tokens.minted;
  const connects = h.ctx.apns.connects;
  await h.followEvent(h.user('crowd'), ada);
  await eventually(async () => (h.apns.requests.length >= before + 20 ? true : undefined));
  const sent = h.apns.requests.slice(before);
  expect(new Set(sent.map((r) => r.jwt!.raw)).size).toBe(1);
  expect(new Set(sent.map((r) => r.sessionId)).size).toBe(1);
  expect(h.ctx.apns.tokens.minted).toBe(minted);
  expect(h.ctx.apns.connects).toBe(connects);
});
