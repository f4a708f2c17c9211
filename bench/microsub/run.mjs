#!/usr/bin/env node
// Microsub benchmark (bench/README.md "Microsub"): issue 13's targets for a user following 2,000
// accounts with 200,000 posts in the system and a few hundred unread, through the gateway of the single
// process (`npm start`) on the embedded store. Run after a build, from the repository root (or
// `npm run bench -- microsub`):
//   node bench/microsub/run.mjs [--users=10000] [--posts=200000] [--unread=300] [--samples=300]
//                               [--limit=20] [--store=file|memory] [--only=timeline,channels,mark_read]
//                               [--cpu-prof=<dir>] [--json]
// Exits non-zero only when the benchmark could not run or an answer was wrong; a missed target is reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  BenchError,
  flag,
  forkServer,
  loadavg,
  log,
  machine,
  measure,
  mib,
  option,
  runMain,
  serverExecArgv,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLES = Number(option('samples', '300'));
const STORE = option('store', 'file');
const UNREAD = Number(option('unread', '300'));
/** The page size of the timeline requests: what Monocle and Indigenous ask for when they name none. */
const LIMIT = option('limit', '');
const MARKED = 100;
const SERVER_HEAP_MB = Number(option('server-heap', '1536'));
/** A directory for a V8 CPU profile of the server process (seeding included). */
const CPU_PROF_DIR = option('cpu-prof', '');
/** Only these measurements (timeline,channels,mark_read); all by default. */
const ONLY = new Set(option('only', 'timeline,channels,mark_read').split(','));
// Issue 13's targets.
const TARGETS = { timelineP95: 25, markReadP95: 25, channelsP95: 10 };

function startServer(dataDir) {
  return forkServer(join(here, 'server.mjs'), {
    execArgv: serverExecArgv({ heapMb: SERVER_HEAP_MB, cpuProfDir: CPU_PROF_DIR }),
    env: {
      BENCH_DATA_DIR: dataDir,
      BENCH_STORE: STORE,
      BENCH_USERS: option('users', '10000'),
      BENCH_POSTS: option('posts', '200000'),
      BENCH_UNREAD: String(UNREAD),
    },
  });
}

async function call(server, method, path, body) {
  const started = performance.now();
  const res = await fetch(`${server.gatewayUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body } : {}),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200)
    throw new BenchError(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { json: text ? JSON.parse(text) : undefined, ms };
}

async function unreadCounts(server) {
  const { json } = await call(server, 'GET', '/microsub?action=channels');
  return Object.fromEntries(json.channels.filter((c) => 'unread' in c).map((c) => [c.uid, c.unread]));
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-microsub-'));
  let server;
  try {
    server = await startServer(dataDir);
    log(
      `Murmur started in ${Math.round(server.startMs)} ms (feeds store seeded in ${server.seedSeconds.toFixed(1)} s: ${server.users} users, ${server.posts} posts, ${server.follows} follow edges); u1 follows 2,000 and has ${server.unreadIds.length} unread`,
    );
    const timelinePath = `/microsub?action=timeline&channel=default${LIMIT ? `&limit=${LIMIT}` : ''}`;

    // Correctness first: what the measurements below rely on.
    const first = await call(server, 'GET', timelinePath);
    const expectedPage = Number(LIMIT || 20);
    if (first.json.items.length !== Math.min(expectedPage, 100))
      throw new BenchError(`the timeline page has ${first.json.items.length} items`);
    if (!first.json.items.every((item) => item._is_read === false))
      throw new BenchError(
        `the newest items of the timeline are not all unread: ${JSON.stringify(first.json.items.map((i) => [i._id, i.published, i._is_read]))}`,
      );
    const counts = await unreadCounts(server);
    if (counts.default !== UNREAD)
      throw new BenchError(`default shows ${counts.default} unread, not ${UNREAD}`);

    const loadBefore = loadavg();
    log(`measuring through the gateway (sequential requests), load average ${loadBefore}:`);
    // The machine's noise floor: the gateway answering its own health check, no service involved.
    const floor = await measure('GET /healthz of the gateway (noise floor)', SAMPLES, async () => {
      const started = performance.now();
      const res = await fetch(`${server.gatewayUrl}/healthz`);
      await res.text();
      if (!res.ok) throw new BenchError(`/healthz answered ${res.status}`);
      return performance.now() - started;
    });
    const results = { loadavg: { before: loadBefore }, noiseFloor: floor };
    if (ONLY.has('timeline'))
      results.timeline = await measure(
        `GET ${timelinePath}`,
        SAMPLES,
        async () => (await call(server, 'GET', timelinePath)).ms,
      );
    if (ONLY.has('channels'))
      results.channels = await measure(
        'GET /microsub?action=channels',
        SAMPLES,
        async () => (await call(server, 'GET', '/microsub?action=channels')).ms,
      );
    if (ONLY.has('mark_read')) {
      // 100 entries a time, cycling through the unread ones (as a client marks what it showed).
      const ids = server.unreadIds;
      const windows = Math.max(1, Math.floor(ids.length / MARKED));
      results.markRead = await measure(
        `POST action=timeline&method=mark_read with ${MARKED} entry[]`,
        SAMPLES,
        async (i) => {
          const from = (i % windows) * MARKED;
          const body = new URLSearchParams([
            ['action', 'timeline'],
            ['method', 'mark_read'],
            ['channel', 'default'],
            ...ids.slice(from, from + MARKED).map((id) => ['entry[]', id]),
          ]).toString();
          return (await call(server, 'POST', '/microsub', body)).ms;
        },
      );
      // Every unread item was marked read in those requests: the count must say so at once.
      const after = await unreadCounts(server);
      const left = ids.length - windows * MARKED;
      if (after.default !== left)
        throw new BenchError(`after marking, default shows ${after.default} unread, not ${left}`);
    }
    results.loadavg.after = loadavg();

    const memory = await server.ask('memory', 'memory');
    results.rssMiB = mib(memory.rss);
    log(`  server RSS ${results.rssMiB} MiB`);

    const target = (label, result, goal) => {
      if (result) log(`  ${label} p95 ≤ ${goal} ms: ${verdict(result.p95 <= goal)} (${result.p95} ms)`);
    };
    log('targets:');
    target('action=timeline', results.timeline, TARGETS.timelineP95);
    target(`mark_read of ${MARKED}`, results.markRead, TARGETS.markReadP95);
    target('action=channels', results.channels, TARGETS.channelsP95);
    log(`load average (/proc/loadavg): before ${results.loadavg.before}; after ${results.loadavg.after}`);
    log(`machine: ${machine()}, Node ${process.version}, store ${STORE}`);
    if (flag('json')) console.log(JSON.stringify(results, null, 2));
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runMain(main);
