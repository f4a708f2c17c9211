#!/usr/bin/env node
// Reader benchmark (bench/reader/README.md): one user with 500 subscriptions and 100,000 entries
// (30,000 unread) on the embedded store, measured through the gateway; then polling throughput
// against 1,000 local feeds. Run after a build, from the repository root:
//   node bench/reader/run.mjs [--subscriptions=500] [--items=200] [--unread=30000] [--samples=200]
//                             [--poll-feeds=1000] [--store=file|memory|mongodb]
//                             [--skip-parse] [--skip-reads] [--skip-poll] [--json] [--data-dir=<dir>]
// --data-dir: seed into that directory and keep it (bench/store/community.mjs); otherwise a temporary one.
// Exits non-zero only when the benchmark could not run; missing a target is reported.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  benchDataDir,
  BenchError,
  flag,
  forkServer,
  loadavg,
  log,
  machine,
  mib,
  option,
  serverExecArgv,
  verdict,
} from '../lib/cli.mjs';
import { startFeedHosts } from './feeds.mjs';
import { parsePhase } from './parse.mjs';
import { workDelta } from '../lib/work.mjs';
import { client, entryCount, logReadTargets, measureReads, TARGETS } from './reads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SUBSCRIPTIONS = Number(option('subscriptions', '500'));
const ITEMS = Number(option('items', '200'));
const UNREAD = Number(option('unread', '30000'));
const SAMPLES = Number(option('samples', '200'));
const POLL_FEEDS = Number(option('poll-feeds', '1000'));
const STORE = option('store', 'file');
/** V8's old-space cap for the server process (MiB); 0 leaves V8's default (a quarter of the machine's memory). */
const SERVER_HEAP_MB = Number(option('server-heap', '640'));
/** A directory for V8 CPU profiles of the server processes (`node --cpu-prof`), for DevTools. */
const CPU_PROF_DIR = option('cpu-prof', '');

/** --store=mongodb: a database of this run on the MongoDB-wire server at MONGO_URL (kept across the restart). */
function mongoStoreUrl(service) {
  if (STORE !== 'mongodb') return '';
  if (!process.env.MONGO_URL)
    throw new BenchError('--store=mongodb needs MONGO_URL (node scripts/ferretdb.mjs -- node bench/…)');
  return `${process.env.MONGO_URL.replace(/\/+$/, '')}/murmur_bench_${service}_${process.pid}`;
}

/** The system under test in its own process (so its memory is its own). */
function startServer(dataDir, adminToken) {
  return forkServer(join(here, 'server.mjs'), {
    execArgv: serverExecArgv({ heapMb: SERVER_HEAP_MB, cpuProfDir: CPU_PROF_DIR }),
    env: {
      BENCH_DATA_DIR: dataDir,
      BENCH_STORE: STORE,
      BENCH_STORE_URL: mongoStoreUrl('reader'),
      BENCH_ADMIN_TOKEN: adminToken,
    },
  });
}

async function createUser(server, adminToken, username) {
  const res = await fetch(`${server.identityUrl}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com` }),
  });
  if (res.status !== 201) throw new BenchError(`creating ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

/** Runs `task(i)` for i in [0, n) with `parallel` at a time. */
async function pool(n, parallel, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

async function readsPhase() {
  const adminToken = randomBytes(24).toString('base64url');
  const data = benchDataDir('murmur-bench-reader-');
  const dataDir = data.dir;
  const hosts = await startFeedHosts({ hosts: 20, itemsPerFeed: ITEMS, newPerGeneration: 5 });
  let server = await startServer(dataDir, adminToken);
  try {
    const token = await createUser(server, adminToken, 'bench');
    let call = client(server, token);
    log(`seeding: ${SUBSCRIPTIONS} subscriptions × ${ITEMS} entries (${STORE} store)…`);
    const seedStart = performance.now();
    await pool(SUBSCRIPTIONS, 4, (i) =>
      call('POST', '/feeds/v2/subscriptions.json', { feed_url: hosts.url(i) }),
    );
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const unread = (await call('GET', '/feeds/v2/unread_entries.json')).json();
    const surplus = unread.slice(UNREAD);
    for (let i = 0; i < surplus.length; i += 1000) {
      await call('DELETE', '/feeds/v2/unread_entries.json', { unread_entries: surplus.slice(i, i + 1000) });
    }
    const total = await entryCount(call);
    const unreadNow = (await call('GET', '/feeds/v2/unread_entries.json')).json();
    log(`  seeded in ${Math.round(seedSeconds)} s: ${total} entries, ${unreadNow.length} unread`);
    if (unreadNow.length !== Math.min(UNREAD, unread.length)) throw new BenchError('unexpected unread count');

    const results = await measureReads(call, { samples: SAMPLES, total });
    const memory = await server.memory();
    log(`  server RSS ${mib(memory.rss)} MiB; live heap after a GC ${mib(memory.liveHeap)} MiB`);

    // A restart: the embedded store loads its files, and the first request builds the view.
    await server.stop();
    server = await startServer(dataDir, adminToken);
    const token2 = await createUser(server, adminToken, 'bench');
    void token2; // identity keeps its users in memory; the reader's data is what was reloaded.
    call = client(server, token2);
    const coldStart = server.readerStartMs;
    // The reader keys data by identity's user id; the re-created user gets the same id (1).
    const cold = (await call('GET', '/feeds/v2/unread_entries.json')).ms;
    const warm = (await call('GET', '/feeds/v2/unread_entries.json')).ms;
    log(
      `  after a restart: reader started in ${Math.round(coldStart)} ms; first GET unread ${Math.round(cold)} ms, then ${Math.round(warm)} ms`,
    );
    const restartMemory = await server.memory();
    return {
      seedSeconds: Math.round(seedSeconds),
      entries: total,
      unread: unreadNow.length,
      ...results,
      rssMiB: mib(memory.rss),
      liveHeapMiB: mib(memory.liveHeap),
      serverHeapCapMiB: SERVER_HEAP_MB || null,
      restart: {
        readerStartMs: Math.round(coldStart),
        firstUnreadMs: Math.round(cold),
        secondUnreadMs: Math.round(warm),
        rssMiB: mib(restartMemory.rss),
      },
    };
  } finally {
    await server.stop().catch(() => undefined);
    await hosts.close();
    data.remove();
  }
}

/** Work per feed (bench/lib/work.mjs), rounded; the reader's own database is the `file` store's. */
function perFeed(delta, feeds) {
  const round = (n) => Math.round((n / feeds) * 100) / 100;
  const reader = Object.entries(delta.statements)
    .filter(([db]) => db.includes('/reader/'))
    .reduce((s, [, n]) => s + n, 0);
  return {
    cpuMs: round(delta.cpuMs),
    statements: round(delta.statementsTotal),
    readerStatements: round(reader),
    commits: round(delta.commitsTotal),
    fsyncs: round(delta.fsyncs),
  };
}

/** With --statements: the SQL statements run most, per polled feed. */
function logStatements(phase, delta) {
  if (!flag('statements')) return;
  log(`  ${phase}: statements per feed, most run first`);
  for (const [sql, n] of Object.entries(delta.sources)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25))
    log(
      `    ${(n / POLL_FEEDS).toFixed(2)} × ${sql.replace(/^\S*\/([^/]+\/store\.sqlite)/, '$1').slice(0, 160)}`,
    );
}

async function pollPhase() {
  const adminToken = randomBytes(24).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-poll-'));
  const hosts = await startFeedHosts({ hosts: 20, itemsPerFeed: 20, newPerGeneration: 5 });
  const server = await startServer(dataDir, adminToken);
  try {
    const call = client(server, await createUser(server, adminToken, 'poller'));
    log(
      `polling: subscribing to ${POLL_FEEDS} feeds (each a first fetch, parse and store)… load ${loadavg()}`,
    );
    const work = () => server.ask('work', 'work');
    const subWork = await work();
    const subStart = performance.now();
    const subs = [];
    await pool(POLL_FEEDS, 8, async (i) => {
      subs[i] = (await call('POST', '/feeds/v2/subscriptions.json', { feed_url: hosts.url(i) })).json();
    });
    const subscribeMinutes = (performance.now() - subStart) / 60_000;
    const subscribeDelta = workDelta(subWork, await work());
    const subscribeWork = perFeed(subscribeDelta, POLL_FEEDS);
    logStatements('subscribe', subscribeDelta);
    const count = async () =>
      Number((await call('GET', '/feeds/v2/entries.json?per_page=1')).headers.get('x-feedbin-record-count'));
    const before = await count();
    for (let i = 0; i < POLL_FEEDS; i++) hosts.bump(i);
    const requestsBefore = hosts.requests();
    const pollWork = await work();
    const pollStart = performance.now();
    // update.json queues the refresh job of each feed: every one finds 5 new items.
    await pool(POLL_FEEDS, 8, (i) => call('POST', `/feeds/v2/subscriptions/${subs[i].id}/update.json`));
    const expected = before + POLL_FEEDS * 5;
    // Every count request rebuilds the user's view (all subscriptions' timelines) once polling
    // changed it, work the server would count as polling's: count only once every feed was fetched.
    for (;;) {
      if (hosts.requests() - requestsBefore >= POLL_FEEDS && (await count()) >= expected) break;
      if (performance.now() - pollStart > 15 * 60_000)
        throw new BenchError('polling did not finish in 15 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const pollMinutes = (performance.now() - pollStart) / 60_000;
    const repollDelta = workDelta(pollWork, await work());
    const repollWork = perFeed(repollDelta, POLL_FEEDS);
    logStatements('re-poll', repollDelta);
    const memory = await server.memory();
    const result = {
      feeds: POLL_FEEDS,
      fetched: hosts.requests() - requestsBefore,
      subscribePerMinute: Math.round(POLL_FEEDS / subscribeMinutes),
      pollPerMinute: Math.round(POLL_FEEDS / pollMinutes),
      pollSeconds: Math.round(pollMinutes * 600) / 10,
      rssMiB: mib(memory.rss),
      subscribeWork,
      repollWork,
      load: loadavg(),
    };
    log(
      `  subscribe (first fetch): ${result.subscribePerMinute} feeds/min; poll with new items: ` +
        `${result.pollPerMinute} feeds/min (${POLL_FEEDS} feeds in ${result.pollSeconds} s); RSS ${result.rssMiB} MiB; load ${result.load}`,
    );
    for (const [name, w] of [
      ['subscribe', subscribeWork],
      ['re-poll', repollWork],
    ])
      log(
        `  ${name}, per feed: server CPU ${w.cpuMs} ms; SQLite statements ${w.statements} ` +
          `(reader's file ${w.readerStatements}); COMMITs ${w.commits}; fsyncs ${w.fsyncs}`,
      );
    return result;
  } finally {
    await server.stop().catch(() => undefined);
    await hosts.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  log(`reader benchmark on ${machine()}, Node ${process.version}`);
  log(
    `server: ${STORE} store, V8 old space ${SERVER_HEAP_MB > 0 ? `capped at ${SERVER_HEAP_MB} MiB` : 'at its default'}`,
  );
  const parse = flag('skip-parse') ? null : await parsePhase({ seconds: 3, log });
  const reads = flag('skip-reads') ? null : await readsPhase();
  const poll = flag('skip-poll') ? null : await pollPhase();
  if (reads) {
    log('targets:');
    logReadTargets(reads, reads.rssMiB);
  }
  if (poll)
    log(
      `  polling ${poll.pollPerMinute} feeds/min ≥ ${TARGETS.feedsPerMinute}: ${verdict(poll.pollPerMinute >= TARGETS.feedsPerMinute)}`,
    );
  if (parse)
    log(
      `  parse-only: ${parse.feedsPerSecond} feeds/s (30 items), ${parse.mbPerSecond} MB/s; event loop held ≤ ${Math.max(parse.stallMs.huge, parse.stallMs.deep)} ms ≤ 100: ${verdict(Math.max(parse.stallMs.huge, parse.stallMs.deep) <= 100)}`,
    );
  if (flag('json')) console.log(JSON.stringify({ parse, reads, poll }));
} catch (err) {
  log(err instanceof BenchError ? `benchmark failed: ${err.message}` : err);
  process.exitCode = 1;
}
