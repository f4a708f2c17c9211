// One delivery job covers a user's devices (docs/adr/0014-push-delivery.md); what is settled stays per
// (event, device): a retry, or a worker taking over the job of one that died mid-batch, sends only to
// the devices not yet served, and every device ends with one final entry in the delivery log.
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import { ConcurrencyLimit } from '@murmur/core';
import { JobQueue } from '@murmur/jobs';
import { eventually, testLogger } from '@murmur/testing';
import { DeliveryLogWriter } from '../src/domain/delivery-log-writer.js';
import { registerPushJobs } from '../src/jobs/index.js';
import type { Answer } from './apns-stand-in.js';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  // One stream at a time, so a job's sends happen in device order and a crash leaves some unsent.
  h = await startHarness({ env: { PUSH_DELIVERY_CONCURRENCY: '1' } });
});
afterAll(() => h.stop());
afterEach(() => {
  delete h.apns.answerFor;
  h.apns.requests.length = 0;
});

interface Entry {
  outcome: string;
  status: number;
  attempt: number;
  device: string;
  device_id: number;
}

async function logOf(userId: number): Promise<Entry[]> {
  const res = await h.admin('GET', `/admin/push/log?user_id=${userId}`);
  expect(res.statusCode).toBe(200);
  return (res.json().deliveries as Entry[]).reverse();
}

const sentTo = (token: string) => h.apns.requests.filter((r) => r.token === token).length;

test('429 for one of three devices: the retry a minute later goes to that device only', async () => {
  const ada = h.user('ada');
  for (const n of [1, 2, 3]) await h.register(ada, devHex(n));
  h.apns.answerFor = (req) =>
    req.token === devHex(2) && sentTo(devHex(2)) === 0
      ? { status: 429, reason: 'TooManyRequests' }
      : undefined;
  await h.followEvent(h.user('bob'), ada);
  await eventually(async () => (h.apns.requests.length >= 3 ? true : undefined));
  await h.settle();
  h.clock.advance(121_000);
  await eventually(async () => (h.apns.requests.length >= 4 ? true : undefined));
  await h.settle();
  expect([1, 2, 3].map((n) => sentTo(devHex(n)))).toEqual([1, 2, 1]);
  const log = await logOf(ada.id);
  expect(log.filter((e) => e.outcome === 'delivered').map((e) => e.device)).toHaveLength(3);
  expect(log).toContainEqual(
    expect.objectContaining({
      outcome: 'retry',
      status: 429,
      attempt: 1,
      device: `${devHex(2).slice(0, 8)}…`,
    }),
  );
  expect(log).toContainEqual(
    expect.objectContaining({ outcome: 'delivered', attempt: 2, device: `${devHex(2).slice(0, 8)}…` }),
  );
});

test('the worker dies mid-batch: another takes the job over after the lease and sends only what was not delivered', async () => {
  const cy = h.user('cy');
  for (const n of [11, 12, 13]) await h.register(cy, devHex(n));
  let release!: (answer: Answer) => void;
  const held = new Promise<Answer>((resolve) => (release = resolve));
  let asked = 0;
  h.apns.answerFor = (req) => {
    // The first worker's send to the second device gets no answer: it is in flight when the worker dies.
    if (req.token === devHex(12) && asked++ === 0) return held;
    return undefined;
  };
  await h.followEvent(h.user('bob'), cy);
  // The first device is delivered and logged, the second in flight, the third not yet sent.
  await eventually(async () => (asked === 1 && (await logOf(cy.id)).length === 1 ? true : undefined));
  expect(sentTo(devHex(13))).toBe(0);
  h.ctx.jobs.simulateCrash();

  // Another worker (its own queue, stream limit and log writer; the same store) after the lease ran out.
  const other = new JobQueue(h.store, {
    service: 'push',
    logger: testLogger(),
    clock: h.clock,
    pollIntervalMs: 20,
  });
  registerPushJobs(other, {
    ...h.ctx,
    jobs: other,
    apnsStreams: new ConcurrencyLimit(1),
    deliveryLog: new DeliveryLogWriter(h.ctx.store),
  });
  await other.start();
  try {
    h.clock.advance(61_000);
    await eventually(async () =>
      (await logOf(cy.id)).filter((e) => e.outcome === 'delivered').length === 3 ? true : undefined,
    );
    // The first device was not sent again; the other two were sent by the new worker.
    expect(sentTo(devHex(11))).toBe(1);
    expect(sentTo(devHex(12))).toBe(1);
    expect(sentTo(devHex(13))).toBe(1);
    const log = await logOf(cy.id);
    expect(log.map((e) => [e.device, e.outcome, e.attempt])).toEqual([
      [`${devHex(11).slice(0, 8)}…`, 'delivered', 1],
      [`${devHex(12).slice(0, 8)}…`, 'delivered', 2],
      [`${devHex(13).slice(0, 8)}…`, 'delivered', 2],
    ]);
  } finally {
    await other.stop();
    // A crash cannot be staged in-process completely: the dead worker's handler still waits for its
    // answer and would then go on to the third device. Let it end before the harness stops (its late
    // entries find those devices already settled and change nothing).
    release({ status: 200 });
    await eventually(async () => (sentTo(devHex(12)) === 2 && sentTo(devHex(13)) === 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
    expect((await logOf(cy.id)).map((e) => e.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
  }
});
