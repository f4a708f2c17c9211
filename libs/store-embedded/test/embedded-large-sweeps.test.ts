// Large deletes in the embedded store leave the event loop free (docs/adr/0008-embedded-store-durability.md):
// removing one document costs O(log n) whatever the cardinality of the indexed fields, and sweeps run
// in batches with a turn of the event loop in between. What is asserted is that other work gets turns
// while a sweep runs (a count, not a time); the wall-clock bound is only a backstop, generous on
// purpose because a loaded machine's GC pauses alone reach hundreds of ms, whereas before this design
// the same sweep blocked for 15-25 s. The benchmark (bench/store/run.mjs) has the timings.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { openStore } from '@murmur/runtime';
import { type Collection, type Store } from '@murmur/store';

const TOTAL = 40_000;
const SWEPT = 5_000;
// Batches of at most 500 removals (embedded-collection.ts): a sweep of SWEPT must yield this often.
const MIN_TURNS = SWEPT / 500 - 1;
// Backstop only (see above): deleting 5,000 of 40,000 jobs blocked for 15.4 s before.
const MAX_BLOCK_MS = 3_000;

let dir: string;
let store: Store;
let jobs: Collection;

/**
 * The job queue's indexes (jobs/queue.ts) and 100,000 finished jobs: the first 5,000 past their
 * TTL, the next 5,000 finished long ago. Built once: on a busy 2-core machine this takes a while.
 */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-sweep-'));
  store = await openStore(`file:${dir}`, { service: 'sweep', ttlSweepIntervalMs: 3_600_000 });
  jobs = store.collection('jobs');
  await jobs.createIndex({ status: 1, type: 1, runAt: 1 });
  await jobs.createIndex({ status: 1, type: 1, leaseUntil: 1 });
  await jobs.createIndex({ key: 1 }, { unique: true, sparse: true });
  await jobs.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, sparse: true });
  const now = Date.now();
  for (let start = 0; start < TOTAL; start += 10_000) {
    const batch = [];
    for (let i = start; i < start + 10_000; i++) {
      batch.push({
        _id: `job${i}`,
        type: i % 2 ? 'fetch' : 'mail',
        payload: { n: i },
        status: 'done',
        runAt: new Date(now - 1000),
        attempts: 1,
        leaseUntil: null,
        finishedAt: new Date(now - (i < 2 * SWEPT ? 86_400_000 : 1000)),
        expiresAt: new Date(now + (i < SWEPT ? -1000 : 3_600_000)),
      });
    }
    await jobs.insertMany(batch);
  }
}, 300_000);

afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The longest the event loop was blocked while `work` ran, and how many turns other work got. */
async function longestBlock(work: () => Promise<unknown>): Promise<{ block: number; turns: number }> {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  // A probe too: the histogram's own timer only measures while it gets turns.
  let last = performance.now();
  let worst = 0;
  const probe = setInterval(() => {
    const t = performance.now();
    worst = Math.max(worst, t - last);
    last = t;
  }, 5);
  histogram.enable();
  try {
    await work();
  } finally {
    counting = false;
    histogram.disable();
    clearInterval(probe);
  }
  worst = Math.max(worst, performance.now() - last);
  return { block: Math.max(worst, histogram.max / 1e6), turns };
}

it(`the TTL sweep of ${SWEPT} expired out of ${TOTAL} jobs lets other work run while it sweeps`, async () => {
  const core = (jobs as unknown as { core(): { sweepExpired(): Promise<number> } }).core();
  let swept = 0;
  const { block, turns } = await longestBlock(async () => {
    swept = await core.sweepExpired();
  });
  expect(swept).toBe(SWEPT);
  expect(await jobs.countDocuments({ _id: { $in: ['job0', `job${SWEPT - 1}`, `job${SWEPT}`] } })).toBe(1);
  expect(turns).toBeGreaterThanOrEqual(MIN_TURNS);
  expect(block).toBeLessThan(MAX_BLOCK_MS);
}, 120_000);

it(`deleteMany of ${SWEPT} old jobs out of the ${TOTAL - SWEPT} left lets other work run while it sweeps`, async () => {
  const cutoff = new Date(Date.now() - 3_600_000);
  let deleted = 0;
  const { block, turns } = await longestBlock(async () => {
    deleted = (await jobs.deleteMany({ status: 'done', finishedAt: { $lt: cutoff } })).deletedCount;
  });
  expect(deleted).toBe(SWEPT);
  expect(await jobs.countDocuments({ status: 'done' })).toBe(TOTAL - 2 * SWEPT);
  expect(turns).toBeGreaterThanOrEqual(MIN_TURNS);
  expect(block).toBeLessThan(MAX_BLOCK_MS);
}, 120_000);
