// A job queue with nothing to do looks at its store less and less often (src/jobs/idle-poll.ts) — by
// default on the embedded store only — yet still runs at once what this process enqueues and, when it
// falls due, what it delayed or retries.
import { afterEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { JobQueue, type JobQueueOptions } from '../../src/jobs/index.js';
import { IDLE_POLLS, pollIntervals } from '../../src/jobs/idle-poll.js';
import { openStore } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { callsDuring, countingFindOneAndUpdate } from '../support/counting-store.js';
import { sleep, waitFor } from './job-queue-contract.js';

let n = 0;
const stores: Store[] = [];
const queues: JobQueue[] = [];

afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop(1000)));
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

/** A store reported as `kind` whose `jobs` collection counts the claims made on it. */
async function countingStore(kind: Store['kind']) {
  const inner = await openStore(`memory:idle-polls-${process.pid}-${++n}`, { service: 'jobs' });
  stores.push(inner);
  return countingFindOneAndUpdate(inner, kind, 'jobs');
}

async function startedQueue(store: Store, options: Partial<JobQueueOptions> = {}) {
  const queue = new JobQueue(store, {
    service: 'test',
    logger: pino({ level: 'silent' }),
    pollIntervalMs: 20,
    ...options,
  });
  queues.push(queue);
  return queue;
}

describe('an idle job queue', () => {
  it('looks less often the longer it finds nothing, up to its idle interval', async () => {
    const stretching = await countingStore('embedded');
    const steady = await countingStore('embedded');
    for (const [{ store }, options] of [
      [stretching, { idlePollIntervalMs: 80 }],
      [steady, {}],
    ] as const) {
      const queue = await startedQueue(store, options);
      queue.register('noop', async () => undefined);
      await queue.start();
    }
    await sleep(300);
    const looks = await callsDuring(1000, stretching.counted, steady.counted);
    // Every 20 ms (a poll interval set by hand is kept); every 80 ms once idle with the idle interval.
    expect(looks[1]).toBeGreaterThan(0);
    expect(looks[0]).toBeLessThan(looks[1]! * 0.5);
  });

  it('runs at once what this process enqueues, however long it has been idle', async () => {
    const { store } = await countingStore('embedded');
    const queue = await startedQueue(store, { pollIntervalMs: 5, idlePollIntervalMs: 10_000 });
    const ran: number[] = [];
    queue.register('echo', async () => void ran.push(Date.now()));
    await queue.start();
    // Empty looks 5, 10, 20, … ms apart: after a second the wait is past 600 ms and growing.
    await sleep(1000);
    const enqueued = Date.now();
    await queue.enqueue('echo', {});
    await waitFor(() => ran.length === 1, 2000);
    expect(ran[0]! - enqueued).toBeLessThan(300);
  });

  it('looks for a delayed job and a retry when they fall due, not at its next idle look', async () => {
    const { store } = await countingStore('embedded');
    const queue = await startedQueue(store, {
      pollIntervalMs: 5,
      idlePollIntervalMs: 10_000,
      backoffBaseMs: 1600,
    });
    const runs: Array<{ kind: string; at: number }> = [];
    queue.register('later', async () => void runs.push({ kind: 'later', at: Date.now() }));
    queue.register('flaky', async () => {
      runs.push({ kind: 'flaky', at: Date.now() });
      if (runs.filter((r) => r.kind === 'flaky').length === 1) throw new Error('the first attempt fails');
    });
    await queue.start();
    await sleep(1000);
    // Due in 1.5 s. The enqueue's wake starts the waits again at 5 ms; doubling, the looks come at about
    // 5, 15, 35, …, 1275 and 2555 ms: without a look at the due time the job would run a second late.
    const enqueued = Date.now();
    await queue.enqueue('later', {}, { runAt: new Date(enqueued + 1500) });
    await waitFor(() => runs.some((r) => r.kind === 'later'), 5000);
    const later = runs.find((r) => r.kind === 'later')!;
    expect(later.at - enqueued).toBeGreaterThanOrEqual(1490);
    expect(later.at - enqueued).toBeLessThan(2100);

    // A retry is due 0.8–1.6 s after the failure (backoff), between two of those looks.
    const flaky = await queue.enqueue('flaky', {});
    await waitFor(async () => (await store.collection('jobs').findOne({ _id: flaky._id }))?.attempts === 1);
    await waitFor(() => runs.filter((r) => r.kind === 'flaky').length === 2, 5000);
    const retried = (await store.collection('jobs').findOne({ _id: flaky._id }))!;
    const second = runs.filter((r) => r.kind === 'flaky')[1]!;
    expect(second.at).toBeGreaterThanOrEqual((retried.runAt as Date).getTime() - 10);
    expect(second.at - (retried.runAt as Date).getTime()).toBeLessThan(300);
  });
});

describe('the idle interval', () => {
  it('is four default polls on the embedded store; one poll on MongoDB or with a poll interval set', () => {
    expect(pollIntervals({}, 'embedded')).toEqual({ pollMs: 500, idleMs: 500 * IDLE_POLLS });
    expect(pollIntervals({}, 'mongodb')).toEqual({ pollMs: 500, idleMs: 500 });
    expect(pollIntervals({ pollIntervalMs: 50 }, 'embedded')).toEqual({ pollMs: 50, idleMs: 50 });
    expect(pollIntervals({ idlePollIntervalMs: 5000 }, 'mongodb')).toEqual({ pollMs: 500, idleMs: 5000 });
    expect(pollIntervals({ idlePollIntervalMs: 100 }, 'embedded')).toEqual({ pollMs: 500, idleMs: 500 });
  });
});
