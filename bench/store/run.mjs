#!/usr/bin/env node
// Embedded store benchmark (bench/README.md, docs/adr/0008-embedded-store-durability.md): what fsync
// costs a write, and how long a large sweep blocks the event loop. Run after a build, from the
// repository root:
//   node bench/store/run.mjs [--inserts=2000] [--concurrency=32] [--jobs=100000] [--swept=5000] [--json]
// Each part runs on a fresh `file:` store in a temporary directory. Exits non-zero only when it could not run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { EmbeddedStore } from '@murmur/platform';

const option = (name, fallback) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return Number(arg ? arg.slice(name.length + 3) : fallback);
};
const INSERTS = option('inserts', 2000);
const CONCURRENCY = option('concurrency', 32);
const JOBS = option('jobs', 100_000);
const SWEPT = option('swept', 5000);
const log = (...args) => console.error(...args);

function p95(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
}

async function withStore(options, run) {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-bench-store-'));
  const store = await EmbeddedStore.open({ service: 'bench', location: { kind: 'file', dir }, ...options });
  try {
    return await run(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `writers` loops inserting one small document at a time until INSERTS are done. */
async function inserts(fsync, writers) {
  return withStore({ fsync }, async (store) => {
    const c = store.collection('posts');
    await c.createIndex({ userId: 1, at: -1 });
    let next = 0;
    const latencies = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < INSERTS) {
          const n = next++;
          const t = performance.now();
          await c.insertOne({ _id: n, userId: n % 50, at: new Date(), body: 'x'.repeat(200) });
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      fsync,
      writers,
      insertsPerSecond: Math.round(INSERTS / seconds),
      p95Ms: +p95(latencies).toFixed(2),
    };
  });
}

/** The longest the event loop was blocked while `work` ran: histogram max and a 5 ms probe. */
async function blocked(work) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let probe = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    probe = Math.max(probe, t - last);
    last = t;
  }, 5);
  histogram.enable();
  const started = performance.now();
  const result = await work();
  const totalMs = performance.now() - started;
  histogram.disable();
  clearInterval(timer);
  probe = Math.max(probe, performance.now() - last);
  return {
    result,
    totalMs: Math.round(totalMs),
    maxBlockMs: Math.round(Math.max(probe, histogram.max / 1e6)),
  };
}

/** JOBS finished jobs with the job queue's indexes: SWEPT past their TTL, SWEPT more finished long ago. */
async function sweeps() {
  return withStore({ ttlSweepIntervalMs: 3_600_000 }, async (store) => {
    const jobs = store.collection('jobs');
    await jobs.createIndex({ status: 1, type: 1, runAt: 1 });
    await jobs.createIndex({ status: 1, type: 1, leaseUntil: 1 });
    await jobs.createIndex({ key: 1 }, { unique: true, sparse: true });
    await jobs.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, sparse: true });
    const now = Date.now();
    const loadStarted = performance.now();
    for (let start = 0; start < JOBS; start += 10_000) {
      const batch = [];
      for (let i = start; i < Math.min(JOBS, start + 10_000); i++) {
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
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    // The adapter's own TTL sweep (what the timer runs), then a deleteMany through the status index.
    const core = jobs.core();
    const ttl = await blocked(() => core.sweepExpired());
    const cutoff = new Date(now - 3_600_000);
    const del = await blocked(() => jobs.deleteMany({ status: 'done', finishedAt: { $lt: cutoff } }));
    // A claim while 90,000 done jobs share the status index: one range read.
    const claim = await blocked(() =>
      jobs.findOneAndUpdate(
        { status: 'done', type: 'fetch', runAt: { $lte: new Date() } },
        { $set: { seen: true } },
        { sort: { runAt: 1 } },
      ),
    );
    return {
      jobs: JOBS,
      loadInsertsPerSecond: Math.round(JOBS / loadSeconds),
      ttlSweep: { removed: ttl.result, totalMs: ttl.totalMs, maxBlockMs: ttl.maxBlockMs },
      deleteMany: { removed: del.result.deletedCount, totalMs: del.totalMs, maxBlockMs: del.maxBlockMs },
      claimMs: claim.totalMs,
    };
  });
}

const results = { inserts: [], sweeps: undefined };
for (const fsync of [true, false]) {
  for (const writers of [1, CONCURRENCY]) {
    const r = await inserts(fsync, writers);
    results.inserts.push(r);
    log(
      `insertOne ×${INSERTS}, ${String(writers).padStart(2)} writer(s), fsync ${fsync ? 'on ' : 'off'}: ` +
        `${r.insertsPerSecond} inserts/s, p95 ${r.p95Ms} ms`,
    );
  }
}
results.sweeps = await sweeps();
const s = results.sweeps;
log(`${s.jobs} jobs loaded at ${s.loadInsertsPerSecond} inserts/s (insertMany of 10,000)`);
log(
  `TTL sweep: ${s.ttlSweep.removed} removed in ${s.ttlSweep.totalMs} ms, longest event-loop block ${s.ttlSweep.maxBlockMs} ms`,
);
log(
  `deleteMany: ${s.deleteMany.removed} removed in ${s.deleteMany.totalMs} ms, longest event-loop block ${s.deleteMany.maxBlockMs} ms`,
);
log(`claim (findOneAndUpdate, sorted, among ${s.jobs - 2 * SWEPT} done jobs): ${s.claimMs} ms`);
if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
