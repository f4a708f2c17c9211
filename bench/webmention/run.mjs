#!/usr/bin/env node
// Webmention benchmark (bench/README.md "Webmention"): accepted POST /webmention per second through
// the gateway with the verification jobs running and nothing lost, verifications per minute against a
// local source server, and GET /webmention?target=… for a target with 5,000 mentions. The service runs
// in one process (server.mjs), the gateway in another, autocannon and the source server here.
// Run after a build, from the repository root:
//   node bench/webmention/run.mjs [--duration=10] [--connections=50] [--batch=3000] [--samples=300]
//                                 [--store=file|memory] [--json]
// Exits non-zero only when the benchmark could not run or lost a webmention; a missed target is reported.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BenchError, forkServer, freePort, log, option, stats } from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '50'));
const BATCH = Number(option('batch', '3000'));
const SAMPLES = Number(option('samples', '300'));
const STORE = option('store', 'file');
const TARGETS = { postsPerSecond: 1000, verificationsPerMinute: 600, getP95Ms: 20 };
const PUBLIC_URL = 'http://murmur.bench';
const TARGET = 'https://ada.example/2026/11/21/hello.html';
const BUSY = 'https://ada.example/2026/11/21/busy.html';

/** User + system CPU time of a process in ms (Linux /proc; undefined elsewhere). */
function cpuMs(pid) {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

/**
 * CPU time the service and the gateway spent per accepted POST during `run` — unlike throughput, hardly
 * moved by what else the machine runs.
 */
async function withCpu(server, gateway, run) {
  const before = [cpuMs(server.pid), cpuMs(gateway.child.pid)];
  const result = await run();
  const after = [cpuMs(server.pid), cpuMs(gateway.child.pid)];
  const per = (i) =>
    before[i] === undefined || !result['2xx']
      ? undefined
      : Math.round(((after[i] - before[i]) / result['2xx']) * 1000);
  return { result, cpuUs: { service: per(0), gateway: per(1) } };
}

async function startSources() {
  // Every source page links the target; answers at once.
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>r</title></head><body><article class="h-entry"><a class="u-in-reply-to" href="${TARGET}">re</a>` +
        `<span class="p-author h-card">Someone</span><div class="e-content"><p>Reply ${req.url}</p></div></article></body></html>`,
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

async function startServer(dataDir, { runJobs = true } = {}) {
  return forkServer(join(here, 'server.mjs'), {
    execArgv: [],
    env: {
      BENCH_DATA_DIR: dataDir,
      BENCH_STORE: STORE,
      BENCH_TARGET: BUSY,
      BENCH_PUBLIC_URL: PUBLIC_URL,
      BENCH_RUN_JOBS: runJobs ? '1' : '0',
    },
  });
}

async function startGateway(serviceUrl) {
  const port = await freePort();
  const internal = await freePort();
  const child = spawn(process.execPath, [join(root, 'gateway/dist/main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      GATEWAY_INTERNAL_PORT: String(internal),
      HOST: '127.0.0.1',
      PUBLIC_URL,
      LOG_LEVEL: 'warn',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      WEBMENTION_URL: serviceUrl,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok)
        return { url: `http://127.0.0.1:${port}`, child };
    } catch {
      /* not yet */
    }
    await sleep(50);
  }
  child.kill();
  throw new BenchError('the gateway did not start');
}

async function drained(server, expected, timeoutMs) {
  const started = performance.now();
  for (;;) {
    const c = await server.ask('counts', 'counts');
    if (c.queued === 0 && c.running === 0 && c.done + c.dead >= expected)
      return { ...c, ms: performance.now() - started };
    if (performance.now() - started > timeoutMs)
      throw new BenchError(`jobs not drained: ${JSON.stringify(c)}`);
    await sleep(100);
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-webmention-'));
  const sources = await startSources();
  const sourceUrl = (n) => `http://localhost:${sources.port}/r/${n}`;
  const results = {
    machine: `${cpus().length} × ${cpus()[0]?.model}`,
    store: STORE,
    loadAverage: loadavg()[0],
  };
  log(`machine: ${results.machine}; load average ${results.loadAverage.toFixed(2)} at the start`);
  let n = 0;
  const post = (path) => ({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (req) => ({
      ...req,
      body: new URLSearchParams({ source: sourceUrl(++n), target: TARGET }).toString(),
    }),
  });

  // 0. Accepted POSTs per second with the verification jobs only queued (no worker in the process),
  //    then a restart with workers on the same store: every accepted pair must end verified.
  if (STORE === 'file') {
    const queuedServer = await startServer(dataDir, { runJobs: false });
    const queuedGateway = await startGateway(queuedServer.url);
    log(
      `POST /webmention through the gateway, jobs queued only: ${CONNECTIONS} connections for ${DURATION} s…`,
    );
    const { result: ac, cpuUs } = await withCpu(queuedServer, queuedGateway, () =>
      autocannon({
        url: queuedGateway.url,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [post('/webmention')],
      }),
    );
    const queued = await queuedServer.ask('counts', 'counts');
    await queuedServer.ask('stop', 'stopped').catch(() => {});
    queuedGateway.child.kill();
    results.postsQueued = {
      perSecond: Math.round(ac['2xx'] / DURATION),
      accepted: ac['2xx'],
      non2xx: ac.non2xx,
      errors: ac.errors,
      p50Ms: ac.latency.p50,
      p99Ms: ac.latency.p99,
      jobsQueued: queued.queued,
      cpuUsPerPost: cpuUs,
    };
    log(
      `  ${results.postsQueued.perSecond} accepted/s (p50 ${ac.latency.p50} ms, p99 ${ac.latency.p99} ms, non-2xx ${ac.non2xx}); ${queued.queued} jobs queued`,
    );
    log(`  CPU per accepted POST: service ${cpuUs.service} µs, gateway ${cpuUs.gateway} µs`);
  }
  const server = await startServer(dataDir);
  const gateway = await startGateway(server.url);
  try {
    if (results.postsQueued) {
      const drainedQueued = await drained(server, results.postsQueued.jobsQueued, 15 * 60_000);
      results.postsQueued.verifiedAfterRestart = drainedQueued.verified;
      results.postsQueued.lost = Math.max(0, results.postsQueued.accepted - drainedQueued.verified);
      log(
        `  after a restart with workers: ${drainedQueued.verified} verified in ${Math.round(drainedQueued.ms)} ms (lost ${results.postsQueued.lost})`,
      );
    }
    // 1. Accepted POSTs per second through the gateway, verification jobs running meanwhile.
    const base = await server.ask('counts', 'counts');
    log(
      `POST /webmention through the gateway while verifying: ${CONNECTIONS} connections for ${DURATION} s (distinct pairs)…`,
    );
    const { result: ac, cpuUs } = await withCpu(server, gateway, () =>
      autocannon({
        url: gateway.url,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [post('/webmention')],
      }),
    );
    const accepted = ac['2xx'];
    results.posts = {
      perSecond: Math.round(accepted / DURATION),
      accepted,
      non2xx: ac.non2xx,
      errors: ac.errors,
      timeouts: ac.timeouts,
      p50Ms: ac.latency.p50,
      p99Ms: ac.latency.p99,
      cpuUsPerPost: cpuUs,
    };
    log(
      `  ${results.posts.perSecond} accepted/s (p50 ${ac.latency.p50} ms, p99 ${ac.latency.p99} ms, non-2xx ${ac.non2xx}, errors ${ac.errors})`,
    );
    log(
      `  CPU per accepted POST (verifications running meanwhile): service ${cpuUs.service} µs, gateway ${cpuUs.gateway} µs`,
    );
    log('  waiting until every accepted pair is verified…');
    const afterPosts = await drained(server, base.done + base.dead + accepted, 15 * 60_000);
    afterPosts.verified -= base.verified;
    results.posts.verifiedAfter = afterPosts.verified;
    // Requests still in flight when autocannon stops are aborted by the client yet may be accepted by
    // the service, so more pairs than the counted 202s can end verified; none may be missing.
    results.posts.lost = Math.max(0, accepted - afterPosts.verified);
    log(
      `  ${afterPosts.verified} of ${accepted} verified (${afterPosts.dead} dead jobs) after ${Math.round(afterPosts.ms)} ms more`,
    );

    // 2. Verifications per minute: a batch posted at once, timed until all are verified.
    const before = await server.ask('counts', 'counts');
    log(`verifying a batch of ${BATCH} new pairs against the local source server…`);
    const started = performance.now();
    for (let i = 0; i < BATCH; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, BATCH - i) }, (_, k) =>
          fetch(`${gateway.url}/webmention`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ source: sourceUrl(`batch-${i + k}`), target: TARGET }).toString(),
          }).then((r) => {
            if (r.status !== 202) throw new BenchError(`POST answered ${r.status}`);
            return r.arrayBuffer();
          }),
        ),
      );
    }
    const batch = await drained(server, before.done + before.dead + BATCH, 15 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    results.verifications = {
      batch: BATCH,
      seconds: Math.round(seconds * 10) / 10,
      perMinute: Math.round(((batch.verified - before.verified) / seconds) * 60),
      lost: BATCH - (batch.verified - before.verified),
    };
    log(
      `  ${results.verifications.perMinute} verifications/min (${BATCH} in ${results.verifications.seconds} s, lost ${results.verifications.lost})`,
    );

    // 3. GET /webmention for a target with 5,000 mentions (sequential requests through the gateway).
    const measure = async (label, path, headers = {}, expect = 200) => {
      const samples = [];
      for (let i = 0; i < SAMPLES + 30; i++) {
        const t = performance.now();
        const res = await fetch(`${gateway.url}${path}`, { headers });
        await res.arrayBuffer();
        if (res.status !== expect) throw new BenchError(`GET ${path} answered ${res.status}`);
        if (i >= 30) samples.push(performance.now() - t);
      }
      const s = stats(samples);
      log(`  ${label}: p50 ${s.p50} ms, p95 ${s.p95} ms (n=${s.n}, max ${s.max} ms)`);
      return s;
    };
    results.noiseFloor = await measure('GET /healthz of the gateway (noise floor)', '/healthz');
    log('GET /webmention for a target with 5,000 mentions (the 500 newest):');
    const q = `/webmention?target=${encodeURIComponent(BUSY)}`;
    // Built from the store: the first GET of each query after a change (each format once, then a new
    // mention of the target changes the revision, so the next GET builds again).
    const cold = [];
    for (let i = 0; i < 40; i++) {
      await server.ask({ touch: BUSY }, 'touched');
      const t = performance.now();
      const res = await fetch(`${gateway.url}${q}&format=${i % 2 ? 'jf2' : 'jsonfeed'}`);
      await res.arrayBuffer();
      if (i >= 5) cold.push(performance.now() - t);
    }
    results.getAfterChange = stats(cold);
    log(
      `  first GET after a change (built from the store): p50 ${results.getAfterChange.p50} ms, p95 ${results.getAfterChange.p95} ms (n=${results.getAfterChange.n})`,
    );
    const first = await fetch(`${gateway.url}${q}`);
    const body = await first.json();
    if (body.items.length !== 500) throw new BenchError(`expected 500 items, got ${body.items.length}`);
    results.get = {
      jsonfeed: await measure('format=jsonfeed', q),
      jf2: await measure('format=jf2', `${q}&format=jf2`),
      page: await measure('format=jsonfeed&per-page=50&page=40', `${q}&per-page=50&page=40`),
      notModified: await measure(
        'If-None-Match → 304',
        q,
        { 'if-none-match': first.headers.get('etag') },
        304,
      ),
    };

    const verdict = (ok) => (ok ? 'met' : 'MISSED');
    log('targets:');
    if (results.postsQueued) {
      log(
        `  accepted POSTs ≥ ${TARGETS.postsPerSecond}/s with jobs queued, nothing lost: ${verdict(results.postsQueued.perSecond >= TARGETS.postsPerSecond && results.postsQueued.lost === 0)}`,
      );
    }
    log(
      `  accepted POSTs ≥ ${TARGETS.postsPerSecond}/s while verifying, nothing lost: ${verdict(results.posts.perSecond >= TARGETS.postsPerSecond && results.posts.lost === 0)}`,
    );
    log(
      `  verifications ≥ ${TARGETS.verificationsPerMinute}/min: ${verdict(results.verifications.perMinute >= TARGETS.verificationsPerMinute)}`,
    );
    log(
      `  GET p95 ≤ ${TARGETS.getP95Ms} ms: ${verdict(results.get.jsonfeed.p95 <= TARGETS.getP95Ms)} (first GET after a change: ${verdict(results.getAfterChange.p95 <= TARGETS.getP95Ms)})`,
    );
    if (process.argv.includes('--json')) console.log(JSON.stringify(results));
    if (
      results.posts.lost !== 0 ||
      results.verifications.lost !== 0 ||
      (results.postsQueued?.lost ?? 0) !== 0
    )
      process.exitCode = 1;
  } finally {
    await server.ask('stop', 'stopped').catch(() => {});
    gateway.child.kill();
    await sources.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  log(err instanceof BenchError ? `bench: ${err.message}` : err);
  process.exitCode = 1;
});
