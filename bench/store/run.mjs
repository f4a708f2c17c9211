#!/usr/bin/env node
// Embedded store benchmark (bench/README.md, docs/adr/0008-embedded-store-durability.md,
// docs/adr/0017-embedded-store-sqlite.md): what durability costs a write, how long a large sweep
// blocks the event loop, and what opening a large directory costs (time to the first read, RSS), on
// the embedded (SQLite) store. Run after a build, from the repository root:
//   node bench/store/run.mjs [--inserts=2000] [--concurrency=32]
//                            [--jobs=100000] [--swept=5000] [--docs=200000] [--json]
// Each part runs on a fresh `file:` store in a temporary directory. Exits non-zero only when it could not run.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { EmbeddedStore } from '@murmur/store-embedded';

const option = (name, fallback) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return Number(arg ? arg.slice(name.length + 3) : fallback);
};
const INSERTS = option('inserts', 2000);
const CONCURRENCY = option('concurrency', 32);
const JOBS = option('jobs', 100_000);
const SWEPT = option('swept', 5000);
const DOCS = option('docs', 200_000);
const ENGINES = ['sqlite'];
const log = (...args) => console.error(...args);

function p95(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
}

async function withStore(options, run) {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-bench-store-'));
  // `sqlite-full`: SQLite's own fsync at every commit (synchronous=FULL) instead of the group fsync.
  const { engine, ...rest } = options;
  const synchronous = engine.split('-')[1];
  options = { ...rest, ...(synchronous ? { synchronous } : {}) };
  const store = await EmbeddedStore.open({ service: 'bench', location: { kind: 'file', dir }, ...options });
  try {
    return await run(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `writers` loops inserting one small document at a time until INSERTS are done. */
async function inserts(engine, fsync, writers) {
  return withStore({ engine, fsync }, async (store) => {
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
      engine,
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
async function sweeps(engine) {
  return withStore({ engine, ttlSweepIntervalMs: 3_600_000 }, async (store) => {
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
      engine,
      jobs: JOBS,
      loadInsertsPerSecond: Math.round(JOBS / loadSeconds),
      ttlSweep: { removed: ttl.result, totalMs: ttl.totalMs, maxBlockMs: ttl.maxBlockMs },
      deleteMany: { removed: del.result.deletedCount, totalMs: del.totalMs, maxBlockMs: del.maxBlockMs },
      claimMs: claim.totalMs,
    };
  });
}

/**
 * DOCS documents of about 1 KB (a reader entry's shape, two indexes) written and closed; then a fresh
 * process opens the directory and reads one document by id and 100 through an index: the time until
 * then and the process's RSS, which is what a service's start-up pays for its store.
 */
async function opening(engine) {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-bench-open-'));
  try {
    const store = await EmbeddedStore.open({ service: 'bench', location: { kind: 'file', dir } });
    const entries = store.collection('entries');
    await entries.createIndex({ feedId: 1, key: 1 }, { unique: true });
    await entries.createIndex({ feedId: 1, published: -1 });
    const started = performance.now();
    for (let start = 0; start < DOCS; start += 5_000) {
      const batch = [];
      for (let i = start; i < Math.min(DOCS, start + 5_000); i++) {
        batch.push({
          _id: i,
          feedId: i % 500,
          key: `https://example.com/${i % 500}/${i}`,
          title: `Entry ${i}`,
          url: `https://example.com/${i % 500}/${i}.html`,
          published: new Date(1_700_000_000_000 + i * 1000),
          content: `<p>${'lorem ipsum dolor sit amet '.repeat(30)}</p>`,
          summary: 'lorem ipsum '.repeat(20),
        });
      }
      await entries.insertMany(batch);
    }
    const writeSeconds = (performance.now() - started) / 1000;
    await store.close();
    const child = fork(new URL(import.meta.url), ['--open-child', dir, engine, `--docs=${DOCS}`], {
      stdio: 'inherit',
    });
    let measured;
    child.once('message', (m) => (measured = m));
    await new Promise((resolve) => child.once('exit', resolve));
    if (!measured) throw new Error('the open child exited without measuring');
    return { engine, docs: DOCS, writePerSecond: Math.round(DOCS / writeSeconds), ...measured };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--open-child') {
  const [dir] = process.argv.slice(3);
  const started = performance.now();
  const store = await EmbeddedStore.open({ service: 'bench', location: { kind: 'file', dir } });
  const entries = store.collection('entries');
  const one = await entries.findOne({ _id: Math.floor(DOCS / 2) });
  const page = await entries.find({ feedId: 7 }, { sort: { published: -1 }, limit: 100 });
  const openMs = Math.round(performance.now() - started);
  if (!one || page.length === 0) throw new Error('the opened store lost documents');
  const t = performance.now();
  for (let i = 0; i < 1000; i++) await entries.findOne({ _id: (i * 7919) % DOCS });
  const byIdUs = Math.round(((performance.now() - t) / 1000) * 1000);
  // A reader page: 100 entries by id, scattered over the whole collection.
  const pages = [];
  for (let p = 0; p < 50; p++) {
    const ids = Array.from({ length: 100 }, (_, i) => (p * 100_003 + i * 9_973) % DOCS);
    const t0 = performance.now();
    const got = await entries.find({ _id: { $in: ids } });
    pages.push(performance.now() - t0);
    if (got.length !== 100) throw new Error('a page lost documents');
  }
  pages.sort((a, b) => a - b);
  const page100Ms = { p50: +pages[24].toFixed(1), p95: +pages[47].toFixed(1) };
  process.send({ openMs, byIdUs, page100Ms, rssMiB: Math.round(process.memoryUsage().rss / 1024 / 1024) });
  await store.close();
  process.exit(0);
}

const results = { inserts: [], sweeps: [], opening: [] };
log(`embedded store benchmark, Node ${process.version}, engines: ${ENGINES.join(', ')}`);
for (const engine of ENGINES) {
  // sqlite: WAL with synchronous=NORMAL and a group-committed fdatasync of the WAL (the default), or
  // synchronous=FULL (SQLite fsyncs every commit on the event loop), or no fsync at all.
  const variants = [
    [engine, true],
    [`${engine}-full`, true],
    [engine, false],
  ];
  for (const [variant, fsync] of variants) {
    for (const writers of [1, CONCURRENCY]) {
      const r = await inserts(variant, fsync, writers);
      results.inserts.push(r);
      log(
        `${variant.padEnd(11)} insertOne ×${INSERTS}, ${String(writers).padStart(2)} writer(s), fsync ${fsync ? 'on ' : 'off'}: ` +
          `${r.insertsPerSecond} inserts/s, p95 ${r.p95Ms} ms`,
      );
    }
  }
  const s = await sweeps(engine);
  results.sweeps.push(s);
  log(`${engine}: ${s.jobs} jobs loaded at ${s.loadInsertsPerSecond} inserts/s (insertMany of 10,000)`);
  log(
    `${engine}: TTL sweep: ${s.ttlSweep.removed} removed in ${s.ttlSweep.totalMs} ms, longest event-loop block ${s.ttlSweep.maxBlockMs} ms`,
  );
  log(
    `${engine}: deleteMany: ${s.deleteMany.removed} removed in ${s.deleteMany.totalMs} ms, longest event-loop block ${s.deleteMany.maxBlockMs} ms`,
  );
  log(`${engine}: claim (findOneAndUpdate, sorted, among ${s.jobs - 2 * SWEPT} done jobs): ${s.claimMs} ms`);
  if (DOCS > 0) {
    const o = await opening(engine);
    results.opening.push(o);
    log(
      `${engine}: ${o.docs} 1 KB documents written at ${o.writePerSecond}/s; a new process opens them and reads: ` +
        `${o.openMs} ms, RSS ${o.rssMiB} MiB; findOne by _id ${o.byIdUs} µs; ` +
        `100 scattered by _id $in: p50 ${o.page100Ms.p50} ms, p95 ${o.page100Ms.p95} ms`,
    );
  }
}
if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
