#!/usr/bin/env node
// Reader benchmark (bench/reader/README.md): one user with 500 subscriptions and 100,000 entries
// (30,000 unread) on the embedded store, measured through the gateway; then polling throughput
// against 1,000 local feeds. Run after a build, from the repository root:
//   node bench/reader/run.mjs [--subscriptions=500] [--items=200] [--unread=30000] [--samples=200]
//                             [--poll-feeds=1000] [--store=file|memory] [--engine=sqlite|nedb]
//                             [--skip-parse] [--skip-reads] [--skip-poll] [--json]
// Exits non-zero only when the benchmark could not run; missing a target is reported.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  BenchError,
  flag,
  forkServer,
  log,
  machine,
  measure as measureAfter,
  mib,
  option,
  serverExecArgv,
  verdict,
} from '../lib/cli.mjs';
import { startFeedHosts } from './feeds.mjs';
import { parsePhase } from './parse.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SUBSCRIPTIONS = Number(option('subscriptions', '500'));
const ITEMS = Number(option('items', '200'));
const UNREAD = Number(option('unread', '30000'));
const SAMPLES = Number(option('samples', '200'));
const POLL_FEEDS = Number(option('poll-feeds', '1000'));
const STORE = option('store', 'file');
/** The `file` store's engine: `sqlite` (the default) or `nedb` (earlier versions, for comparison). */
const ENGINE = option('engine', 'sqlite');
/** V8's old-space cap for the server process (MiB); 0 leaves V8's default (a quarter of the machine's memory). */
const SERVER_HEAP_MB = Number(option('server-heap', '640'));
const TARGETS = { unreadP95: 50, entriesP95: 50, markP95: 100, rssMiB: 1024, feedsPerMinute: 300 };

/** The system under test in its own process (so its memory is its own). */
function startServer(dataDir, adminToken) {
  return forkServer(join(here, 'server.mjs'), {
    execArgv: serverExecArgv({ heapMb: SERVER_HEAP_MB }),
    env: {
      BENCH_DATA_DIR: dataDir,
      BENCH_STORE: STORE,
      BENCH_ENGINE: ENGINE,
      BENCH_ADMIN_TOKEN: adminToken,
    },
  });
}

/** Each measurement after 20 warm-up requests. */
const measure = (label, n, once) => measureAfter(label, n, once, { warmup: 20 });

function client(server, token) {
  const base = server.gatewayUrl;
  return async function call(method, path, body) {
    const url = path.startsWith(server.publicUrl) ? path.slice(server.publicUrl.length) : path;
    const started = performance.now();
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status >= 400)
      throw new BenchError(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text), ms };
  };
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
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-reader-'));
  const hosts = await startFeedHosts({ hosts: 20, itemsPerFeed: ITEMS, newPerGeneration: 5 });
  let server = await startServer(dataDir, adminToken);
  try {
    const token = await createUser(server, adminToken, 'bench');
    let call = client(server, token);
    log(`seeding: ${SUBSCRIPTIONS} subscriptions × ${ITEMS} entries (${STORE} store, ${ENGINE})…`);
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
    const total = Number(
      (await call('GET', '/feeds/v2/entries.json?per_page=1')).headers.get('x-feedbin-record-count'),
    );
    const unreadNow = (await call('GET', '/feeds/v2/unread_entries.json')).json();
    log(`  seeded in ${Math.round(seedSeconds)} s: ${total} entries, ${unreadNow.length} unread`);
    if (unreadNow.length !== Math.min(UNREAD, unread.length)) throw new BenchError('unexpected unread count');

    log('measuring through the gateway (sequential requests):');
    const deepPage = Math.max(2, Math.floor(total / 100) - 100);
    const results = {
      unread: await measure(
        'GET unread_entries.json',
        SAMPLES,
        async () => (await call('GET', '/feeds/v2/unread_entries.json')).ms,
      ),
      entriesFirst: await measure(
        'GET entries.json?per_page=100',
        SAMPLES,
        async () => (await call('GET', '/feeds/v2/entries.json?per_page=100')).ms,
      ),
      entriesDeep: await measure(
        `GET entries.json?per_page=100&page=${deepPage}`,
        SAMPLES,
        async () => (await call('GET', `/feeds/v2/entries.json?per_page=100&page=${deepPage}`)).ms,
      ),
      entriesUnread: await measure(
        'GET entries.json?read=false&per_page=100',
        SAMPLES,
        async () => (await call('GET', '/feeds/v2/entries.json?read=false&per_page=100')).ms,
      ),
    };
    const chunk = unreadNow.slice(0, 1000);
    results.markRead = await measure('DELETE unread_entries.json (1000 ids)', SAMPLES, async () => {
      const r = await call('DELETE', '/feeds/v2/unread_entries.json', { unread_entries: chunk });
      await call('POST', '/feeds/v2/unread_entries.json', { unread_entries: chunk });
      return r.ms;
    });
    results.markUnread = await measure(
      'POST unread_entries.json (1000 ids)',
      Math.min(SAMPLES, 100),
      async () => {
        await call('DELETE', '/feeds/v2/unread_entries.json', { unread_entries: chunk });
        return (await call('POST', '/feeds/v2/unread_entries.json', { unread_entries: chunk })).ms;
      },
    );
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
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function pollPhase() {
  const adminToken = randomBytes(24).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-poll-'));
  const hosts = await startFeedHosts({ hosts: 20, itemsPerFeed: 20, newPerGeneration: 5 });
  const server = await startServer(dataDir, adminToken);
  try {
    const call = client(server, await createUser(server, adminToken, 'poller'));
    log(`polling: subscribing to ${POLL_FEEDS} feeds (each a first fetch, parse and store)…`);
    const subStart = performance.now();
    const subs = [];
    await pool(POLL_FEEDS, 8, async (i) => {
      subs[i] = (await call('POST', '/feeds/v2/subscriptions.json', { feed_url: hosts.url(i) })).json();
    });
    const subscribeMinutes = (performance.now() - subStart) / 60_000;
    const count = async () =>
      Number((await call('GET', '/feeds/v2/entries.json?per_page=1')).headers.get('x-feedbin-record-count'));
    const before = await count();
    for (let i = 0; i < POLL_FEEDS; i++) hosts.bump(i);
    const requestsBefore = hosts.requests();
    const pollStart = performance.now();
    // update.json queues the refresh job of each feed: every one finds 5 new items.
    await pool(POLL_FEEDS, 8, (i) => call('POST', `/feeds/v2/subscriptions/${subs[i].id}/update.json`));
    const expected = before + POLL_FEEDS * 5;
    for (;;) {
      if ((await count()) >= expected) break;
      if (performance.now() - pollStart > 15 * 60_000)
        throw new BenchError('polling did not finish in 15 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }
    const pollMinutes = (performance.now() - pollStart) / 60_000;
    const memory = await server.memory();
    const result = {
      feeds: POLL_FEEDS,
      fetched: hosts.requests() - requestsBefore,
      subscribePerMinute: Math.round(POLL_FEEDS / subscribeMinutes),
      pollPerMinute: Math.round(POLL_FEEDS / pollMinutes),
      pollSeconds: Math.round(pollMinutes * 600) / 10,
      rssMiB: mib(memory.rss),
    };
    log(
      `  subscribe (first fetch): ${result.subscribePerMinute} feeds/min; poll with new items: ` +
        `${result.pollPerMinute} feeds/min (${POLL_FEEDS} feeds in ${result.pollSeconds} s); RSS ${result.rssMiB} MiB`,
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
    `server: ${STORE} store (${ENGINE} engine), V8 old space ${SERVER_HEAP_MB > 0 ? `capped at ${SERVER_HEAP_MB} MiB` : 'at its default'}`,
  );
  const parse = flag('skip-parse') ? null : await parsePhase({ seconds: 3, log });
  const reads = flag('skip-reads') ? null : await readsPhase();
  const poll = flag('skip-poll') ? null : await pollPhase();
  if (reads) {
    log('targets:');
    log(
      `  GET unread p95 ${reads.unread.p95} ms ≤ ${TARGETS.unreadP95}: ${verdict(reads.unread.p95 <= TARGETS.unreadP95)}`,
    );
    log(
      `  GET entries first p95 ${reads.entriesFirst.p95} ms, deep p95 ${reads.entriesDeep.p95} ms ≤ ${TARGETS.entriesP95}: ${verdict(Math.max(reads.entriesFirst.p95, reads.entriesDeep.p95) <= TARGETS.entriesP95)}`,
    );
    log(
      `  mark 1000 read p95 ${reads.markRead.p95} ms ≤ ${TARGETS.markP95}: ${verdict(reads.markRead.p95 <= TARGETS.markP95)}`,
    );
    log(`  RSS ${reads.rssMiB} MiB ≤ ${TARGETS.rssMiB}: ${verdict(reads.rssMiB <= TARGETS.rssMiB)}`);
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
