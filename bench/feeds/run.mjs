#!/usr/bin/env node
// Feeds benchmark (bench/README.md "Feeds timelines"): 10,000 users, 200,000 posts, one user
// following 2,000 others and one followed by 5,000, on the embedded store, measured through the
// gateway. Run after a build, from the repository root (or `npm run bench -- feeds`):
//   node bench/feeds/run.mjs [--users=10000] [--posts=200000] [--samples=300] [--store=file|memory|mongodb]
//                            [--skip-compare] [--json] [--data-dir=<dir>]
// --data-dir: seed into that directory and keep it (bench/store/community.mjs); otherwise a temporary one.
// Exits non-zero only when the benchmark could not run; a missed target is reported.
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  benchDataDir,
  BenchError,
  flag,
  forkServer,
  log,
  machine,
  measure,
  mib,
  option,
  runMain,
  serverExecArgv,
  stats,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLES = Number(option('samples', '300'));
const STORE = option('store', 'file');
const SERVER_HEAP_MB = Number(option('server-heap', '1536'));
const TARGETS = { feedP95: 20, notModifiedP95: 5, publishToTimelineMs: 1000 };

function startServer(dataDir) {
  return forkServer(join(here, 'server.mjs'), {
    execArgv: serverExecArgv({ heapMb: SERVER_HEAP_MB }),
    env: {
      BENCH_DATA_DIR: dataDir,
      BENCH_STORE: STORE,
      // --store=mongodb: a database of this run on the MongoDB-wire server at MONGO_URL.
      BENCH_STORE_URL:
        STORE === 'mongodb' && process.env.MONGO_URL
          ? `${process.env.MONGO_URL.replace(/\/+$/, '')}/murmur_bench_feeds_${process.pid}`
          : '',
      BENCH_USERS: option('users', '10000'),
      BENCH_POSTS: option('posts', '200000'),
    },
  });
}

async function get(server, path, headers = {}) {
  const started = performance.now();
  const res = await fetch(`${server.gatewayUrl}${path}`, { headers });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200 && res.status !== 304)
    throw new BenchError(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, headers: res.headers, text, ms };
}

async function main() {
  const data = benchDataDir('murmur-bench-feeds-');
  const server = await startServer(data.dir);
  try {
    log(`feeds started in ${Math.round(server.feedsStartMs)} ms (index built from ${server.posts} posts)`);
    const heavy = await get(server, `/feeds/${server.heavy}.json`);
    const heavyItems = JSON.parse(heavy.text).items.length;
    if (heavyItems !== 20) throw new BenchError(`the heavy follower's timeline has ${heavyItems} items`);
    // A user with mentions: the author mentioned in the newest mentioning post is not known here, so
    // take a user and check the feed answers (about 1 mention per user on average).
    log('measuring through the gateway (sequential requests):');
    // The machine's noise floor: the gateway answering its own health check, no service involved.
    const floor = await measure(
      'GET /healthz of the gateway (noise floor)',
      SAMPLES,
      async () => (await get(server, '/healthz')).ms,
    );
    const results = {
      noiseFloor: floor,
      timelineHeavy: await measure(
        `GET /feeds/${server.heavy}.json (follows 2,000)`,
        SAMPLES,
        async () => (await get(server, `/feeds/${server.heavy}.json`)).ms,
      ),
      timelineFollower: await measure(
        `GET /feeds/${server.follower}.json (follows the popular user)`,
        SAMPLES,
        async () => (await get(server, `/feeds/${server.follower}.json`)).ms,
      ),
      timelineCount100: await measure(
        `GET /feeds/${server.heavy}.json?count=100`,
        SAMPLES,
        async () => (await get(server, `/feeds/${server.heavy}.json?count=100`)).ms,
      ),
      mentions: await measure(
        'GET /feeds/u{n}/mentions.json (varying users)',
        SAMPLES,
        async (i) => (await get(server, `/feeds/u${1 + ((i * 37) % server.users)}/mentions.json`)).ms,
      ),
      photos: await measure(
        'GET /feeds/photos.json',
        SAMPLES,
        async () => (await get(server, '/feeds/photos.json')).ms,
      ),
    };
    const etag = heavy.headers.get('etag');
    results.notModified = await measure(
      `GET /feeds/${server.heavy}.json with If-None-Match → 304`,
      SAMPLES,
      async () => {
        const r = await get(server, `/feeds/${server.heavy}.json`, { 'if-none-match': etag });
        if (r.status !== 304) throw new BenchError(`expected 304, got ${r.status}`);
        return r.ms;
      },
    );

    log(
      `publishing as ${server.popular} (followed by 5,000) until the post is in ${server.follower}'s timeline:`,
    );
    const latencies = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const id = await server.ask('publish', 'published');
      for (;;) {
        const r = await get(server, `/feeds/${server.follower}.json?count=1`);
        if (JSON.parse(r.text).items[0]?.id === String(id)) break;
        if (performance.now() - started > 10_000)
          throw new BenchError(`post ${id} never reached the timeline`);
      }
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
    results.publishToTimeline = stats(latencies);
    log(
      `  publish → follower's timeline: p50 ${results.publishToTimeline.p50} ms, max ${results.publishToTimeline.max} ms`,
    );

    const memory = await server.ask('memory', 'memory');
    results.rssMiB = mib(memory.rss);
    results.liveHeapMiB = mib(memory.liveHeap);
    log(`  server RSS ${results.rssMiB} MiB; live heap after a GC ${results.liveHeapMiB} MiB`);

    if (!flag('skip-compare')) {
      log('the alternatives on the same store (docs/adr/0010-feeds-timelines.md):');
      const c = await server.ask('compare', 'compare');
      results.compare = c;
      log(
        `  fan-out on read as a store query ($in over 2,001 authors, newest 20): p50 ${c.readQuery.p50.toFixed(1)} ms, max ${c.readQuery.max.toFixed(1)} ms`,
      );
      log(
        `  fan-out on write: ${c.followers} timeline entries per post of the popular user: p50 ${c.writeFanout.p50.toFixed(1)} ms`,
      );
      log(
        `  fan-out on write, reading the heavy follower's ${c.heavyEntries} entries (newest 20): p50 ${c.writeRead.p50.toFixed(1)} ms`,
      );
    }

    log('targets:');
    log(`  timeline p95 ≤ ${TARGETS.feedP95} ms: ${verdict(results.timelineHeavy.p95 <= TARGETS.feedP95)}`);
    log(
      `  mentions / photos p95 ≤ ${TARGETS.feedP95} ms: ${verdict(results.mentions.p95 <= TARGETS.feedP95 && results.photos.p95 <= TARGETS.feedP95)}`,
    );
    log(
      `  304 p95 ≤ ${TARGETS.notModifiedP95} ms: ${verdict(results.notModified.p95 <= TARGETS.notModifiedP95)}`,
    );
    log(
      `  publish → timeline ≤ ${TARGETS.publishToTimelineMs} ms: ${verdict(results.publishToTimeline.max <= TARGETS.publishToTimelineMs)}`,
    );
    log(`machine: ${machine()}, Node ${process.version}, store ${STORE}`);
    if (flag('json')) console.log(JSON.stringify(results, null, 2));
  } finally {
    await server.stop();
    data.remove();
  }
}

runMain(main);
