#!/usr/bin/env node
// Gateway overhead, three ways, all in one run so the ratios share the machine's load:
// 1. distributed: GET /account/me directly against the identity service and through the gateway,
//    each in its own process;
// 2. distributed: GET /feeds/v2/entries.json?per_page=100 directly against the reader and through the
//    gateway (identity, reader and gateway processes on a nats-server of the benchmark's own);
// 3. single process (`npm start`): GET /account/me through its gateway, which dispatches in process,
//    against the identity service running alone (1.) — and, for comparison, the same process with
//    GATEWAY_IN_PROCESS=false (the loopback HTTP hop it used before) and direct to its identity port.
// autocannon (or wrk, --load=wrk) runs here. Run after a build, from the repository root: `npm run bench` or
// `node bench/gateway/run.mjs`.
// Options: --duration=<s> (10), --warmup=<s> (3), --connections=<n> (50), --log-level=<level> (warn),
//          --entries-connections=<n,…> (the concurrencies of 2.: --connections and 1),
//          --entries-rate=<fraction> (2. is also measured at this share of the reader's own saturated
//          rate, on at most --connections connections, in interleaved slices; 0.5; 0 leaves it out),
//          --entries-slices=<n> (how many 2 s slices a side at that rate; 20),
//          --entries-pin (at that rate, the reader on CPU 1 and everything else on CPU 0, so the gateway
//          and the client do not take CPU from the reader; needs taskset),
//          --load=<autocannon|wrk> (the load generator; wrk must be installed),
//          --no-heap-floor (start the gateway and the single process without their launch flags: heap
//          floors, and the gateway's young-generation cap),
//          --only=<distributed,reader,single> (all three), --cpu-prof=<dir> (the gateway processes
//          write V8 CPU profiles there), --json (print the results as one JSON line at the end as well).
// Exits non-zero only when the benchmark could not run or saw errors; missing a target is reported.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { launchFlags } from '@murmur/core';
import { BenchError, flag, freePort, option, processCpuSeconds } from '../lib/cli.mjs';
import { pacedCompare } from '../lib/paced.mjs';
import { pin, requireTools, wrkAsync } from './wrk.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Issue 16's targets.
const TARGET_RATIO = 0.75;
const TARGET_ADDED_P99_MS = 3;
const TARGET_ENTRIES_ADDED_P99_MS = 2;
const TARGET_SINGLE_RATIO = 0.9;

const durationS = Number(option('duration', '10'));
const warmupS = Number(option('warmup', '3'));
const connections = Number(option('connections', '50'));
const logLevel = option('log-level', 'warn');
const printJson = flag('json');
const only = new Set(option('only', 'distributed,reader,single').split(','));
const cpuProfDir = option('cpu-prof', '');
// autocannon (a Node process, the default) or wrk (C, one thread: far less of a 2-core machine's CPU).
const loadGenerator = option('load', 'autocannon');
if (loadGenerator !== 'autocannon' && loadGenerator !== 'wrk')
  throw new BenchError(`--load must be autocannon or wrk, not ${loadGenerator}`);
// The entries page is measured at each of these concurrencies: at 50 the reader is saturated and its
// p99 is mostly queueing; at 1 it is the time one request takes.
const entriesConnections = option('entries-connections', `${connections},1`).split(',').map(Number);
// Saturated, a p99 is the queue's length: what the gateway adds there is the CPU it takes from the reader
// on the same cores, times the queue. At a fixed rate below saturation (an open-loop load, evenly spaced
// as wrk2 sends it: bench/lib/paced.mjs) the p99 is what a request costs when the server has room — the
// latency a client sees at that load. `entriesRate` is that rate as a share of the reader's own
// saturated throughput at --connections.
const entriesRate = Number(option('entries-rate', '0.5'));
// Twenty slices a side: at 150–200 pages a second, ten gave a p99 decided by the 30–40 slowest answers of
// each side, and the same code measured +1.1 and +2.1 ms an hour apart.
const PACED_SLICES = Number(option('entries-slices', '20'));
const PACED_SLICE_S = 2;
const entriesPin = flag('entries-pin');
if (entriesPin) requireTools({ pinning: true });

// The gateway and the single process start as they are deployed, with their launch flags
// (libs/core/src/heap.ts); --no-heap-floor starts them without, to show the difference.
const heapFloor = !flag('no-heap-floor');
const nodeFlagsOf = (which) => (heapFloor ? launchFlags(which) : []);

const children = [];

/** Starts `node <entry>` with `env`; keeps its output so a failure can show why. */
function startProcess(name, entry, env, { profile = false, nodeFlags = [] } = {}) {
  const file = join(root, entry);
  if (!existsSync(file)) throw new BenchError(`${entry} is missing: build first (npm run build).`);
  const flags = profile && cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  flags.push(...nodeFlags);
  const child = spawn(process.execPath, [...flags, file], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const proc = { name, child, output, exited: false };
  child.on('exit', (code, signal) => {
    proc.exited = true;
    proc.exit = signal ?? code;
  });
  children.push(proc);
  return proc;
}

async function stopAll(list = children) {
  await Promise.all(
    list.map(async (p) => {
      if (p.exited) return;
      p.child.kill('SIGTERM');
      for (let i = 0; i < 50 && !p.exited; i++) await sleep(100);
      if (!p.exited) p.child.kill('SIGKILL');
    }),
  );
}

async function waitForOk(proc, url, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (proc.exited) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await sleep(200);
  }
  const why = proc.exited ? `exited (${proc.exit})` : `not ready after ${timeoutMs} ms (${last})`;
  throw new BenchError(`${proc.name} ${why}; its output:\n${proc.output.join('').slice(-4000)}`);
}

/** The first string member named like a token, searched breadth-first (the admin API's shape may nest it). */
function findToken(body) {
  const queue = [body];
  while (queue.length > 0) {
    const v = queue.shift();
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (/token/i.test(k) && typeof x === 'string' && x.length >= 20) return x;
        if (x && typeof x === 'object') queue.push(x);
      }
    }
  }
  return null;
}

async function createUserToken(identityUrl, adminToken) {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const res = await fetch(`${identityUrl}/admin/users`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ username: 'bench', email: 'bench@example.com', name: 'Bench' }),
  });
  const text = await res.text();
  if (!res.ok) throw new BenchError(`POST /admin/users answered ${res.status}: ${text.slice(0, 500)}`);
  const token = findToken(JSON.parse(text));
  if (token) return token;
  // A user created without a token: ask for one.
  const issued = await fetch(`${identityUrl}/admin/users/bench/tokens`, {
    method: 'POST',
    headers: admin,
    body: '{}',
  });
  const issuedText = await issued.text();
  const second = issued.ok ? findToken(JSON.parse(issuedText)) : null;
  if (!second)
    throw new BenchError(
      `no app token from the admin API: ${text.slice(0, 300)} / ${issuedText.slice(0, 300)}`,
    );
  return second;
}

async function checkOnce(url, token) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200)
    throw new BenchError(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  await res.arrayBuffer();
}

/** Loads `url` for `seconds` with the chosen generator (--load) and returns its summary(). */
async function load(url, token, seconds, atConnections = connections) {
  if (loadGenerator === 'wrk') {
    const r = await wrkAsync({ url, token, seconds, connections: atConnections });
    return {
      requestsPerSecond: r.rps,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      total: r.total,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
  }
  return summary(
    await autocannon({
      url,
      connections: atConnections,
      duration: seconds,
      headers: { authorization: `Bearer ${token}` },
    }),
  );
}

/** Warms both paths up, then measures the first and the second (at `atConnections`). */
async function compare(first, second, token, atConnections = connections) {
  await checkOnce(first, token);
  await checkOnce(second, token);
  await load(first, token, warmupS, atConnections);
  await load(second, token, warmupS, atConnections);
  const a = await load(first, token, durationS, atConnections);
  const b = await load(second, token, durationS, atConnections);
  return [a, b];
}

/** A JSON line a child printed that has `ready`. */
async function readyLine(proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !proc.exited) {
    const line = proc.output
      .join('')
      .split('\n')
      .find((l) => l.startsWith('{"ready"'));
    if (line) return JSON.parse(line);
    await sleep(100);
  }
  throw new BenchError(`${proc.name} did not start; its output:\n${proc.output.join('').slice(-4000)}`);
}

/** An RSS feed of `items` items on 127.0.0.1 for the reader to subscribe to. */
async function startFeedServer(items) {
  const { createServer: createHttpServer } = await import('node:http');
  const body =
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Bench</title><link>http://127.0.0.1/</link>' +
    Array.from(
      { length: items },
      (_, i) =>
        `<item><title>Item ${i}</title><link>http://127.0.0.1/${i}</link><guid>bench-${i}</guid>` +
        `<pubDate>${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString()}</pubDate>` +
        `<description>${'&lt;p&gt;Some text of an entry, about a kilobyte of it. &lt;/p&gt;'.repeat(16)}</description></item>`,
    ).join('') +
    '</channel></rss>';
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/feed.xml`, close: () => server.close() };
}

function printRows(rows) {
  const row = (name, s) =>
    `| ${name.padEnd(34)} | ${String(s.requestsPerSecond).padStart(8)} | ${String(s.p50Ms).padStart(7)} | ${String(s.p99Ms).padStart(7)} | ${String(s.non2xx + s.errors + s.timeouts).padStart(6)} |`;
  console.log('');
  console.log(`| ${'target'.padEnd(34)} | req/s    | p50 ms  | p99 ms  | errors |`);
  console.log(`|${'-'.repeat(36)}|----------|---------|---------|--------|`);
  for (const [name, s] of rows) console.log(row(name, s));
  console.log('');
}

const verdict = (ok) => (ok ? 'met' : 'NOT met');

function summary(result) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function main() {
  if (loadGenerator === 'wrk') requireTools();
  const adminToken = randomBytes(32).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-'));
  const results = { connections, durationS };
  const all = [];
  let nats;
  let feeds;
  console.log(
    `gateway benchmark (${loadGenerator}): ${connections} connections, ${durationS} s each after ${warmupS} s warm-up; ` +
      `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, LOG_LEVEL=${logLevel}, ` +
      `heap floors ${heapFloor ? 'on' : 'off (--no-heap-floor)'}`,
  );

  try {
    // 1. Distributed, GET /account/me. The identity service alone is also the single process's reference.
    let identityAlone;
    if (only.has('distributed') || only.has('single')) {
      const identityPort = await freePort();
      const gatewayPort = await freePort();
      const internalPort = await freePort();
      const publicUrl = `http://127.0.0.1:${gatewayPort}`;
      const identityUrl = `http://127.0.0.1:${identityPort}`;
      const identity = startProcess('identity', 'services/identity/dist/main.js', {
        STORE_URL: 'memory:',
        BUS_URL: 'memory:',
        DATA_DIR: dataDir,
        MURMUR_ADMIN_TOKEN: adminToken,
        IDENTITY_PORT: String(identityPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: publicUrl,
        LOG_LEVEL: logLevel,
      });
      await waitForOk(identity, `${identityUrl}/healthz`);
      const gateway = startProcess(
        'gateway',
        'gateway/dist/main.js',
        {
          PORT: String(gatewayPort),
          HOST: '127.0.0.1',
          PUBLIC_URL: publicUrl,
          IDENTITY_URL: identityUrl,
          GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
          GATEWAY_INTERNAL_PORT: String(internalPort),
          LOG_LEVEL: logLevel,
        },
        { profile: true, nodeFlags: nodeFlagsOf('gateway') },
      );
      // The aggregate /readyz is on the gateway's internal port only.
      await waitForOk(gateway, `http://127.0.0.1:${internalPort}/readyz`);
      const token = await createUserToken(identityUrl, adminToken);
      const [d, g] = await compare(`${identityUrl}/account/me`, `${publicUrl}/account/me`, token);
      identityAlone = d;
      all.push(d, g);
      results.direct = d;
      results.gateway = g;
      results.ratio = g.requestsPerSecond / d.requestsPerSecond;
      results.addedP99Ms = g.p99Ms - d.p99Ms;
      console.log('\n1. distributed, GET /account/me');
      printRows([
        ['identity direct', d],
        ['via gateway', g],
      ]);
      console.log(
        `throughput ratio: ${(results.ratio * 100).toFixed(1)} % of direct (target ≥ ${TARGET_RATIO * 100} %): ${verdict(results.ratio >= TARGET_RATIO)}`,
      );
      console.log(
        `added p99: ${results.addedP99Ms.toFixed(2)} ms (target ≤ ${TARGET_ADDED_P99_MS} ms): ${verdict(results.addedP99Ms <= TARGET_ADDED_P99_MS)}`,
      );
      await stopAll([gateway]);
    }

    // 2. Distributed, GET /feeds/v2/entries.json?per_page=100 (the reader authenticates over the bus).
    if (only.has('reader')) {
      const { startNatsServer } = await import('@murmur/testing');
      nats = await startNatsServer();
      feeds = await startFeedServer(150);
      const [identityPort, readerPort, gatewayPort, internalPort] = [
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
      ];
      const publicUrl = `http://127.0.0.1:${gatewayPort}`;
      const identityUrl = `http://127.0.0.1:${identityPort}`;
      const readerUrl = `http://127.0.0.1:${readerPort}`;
      const common = { BUS_URL: nats.url, HOST: '127.0.0.1', PUBLIC_URL: publicUrl, LOG_LEVEL: logLevel };
      const identity = startProcess('identity (nats)', 'services/identity/dist/main.js', {
        ...common,
        STORE_URL: 'memory:',
        DATA_DIR: join(dataDir, 'identity'),
        MURMUR_ADMIN_TOKEN: adminToken,
        IDENTITY_PORT: String(identityPort),
      });
      const reader = startProcess('reader', 'services/reader/dist/main.js', {
        ...common,
        STORE_URL: 'memory:',
        DATA_DIR: join(dataDir, 'reader'),
        MURMUR_ADMIN_TOKEN: adminToken,
        READER_PORT: String(readerPort),
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      });
      await waitForOk(identity, `${identityUrl}/readyz`);
      await waitForOk(reader, `${readerUrl}/readyz`);
      const gateway = startProcess(
        'gateway (reader)',
        'gateway/dist/main.js',
        {
          ...common,
          PORT: String(gatewayPort),
          IDENTITY_URL: identityUrl,
          READER_URL: readerUrl,
          GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
          GATEWAY_INTERNAL_PORT: String(internalPort),
        },
        { profile: true, nodeFlags: nodeFlagsOf('gateway') },
      );
      await waitForOk(gateway, `http://127.0.0.1:${internalPort}/readyz`);
      const token = await createUserToken(identityUrl, adminToken);
      const sub = await fetch(`${readerUrl}/feeds/v2/subscriptions.json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ feed_url: feeds.url }),
      });
      if (sub.status !== 201 && sub.status !== 302 && sub.status !== 200)
        throw new BenchError(`subscribing answered ${sub.status}: ${(await sub.text()).slice(0, 300)}`);
      const path = '/feeds/v2/entries.json?per_page=100';
      const page = await fetch(`${readerUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const entries = await page.json();
      if (!Array.isArray(entries) || entries.length !== 100)
        throw new BenchError(
          `${path} gave ${Array.isArray(entries) ? entries.length : 'no'} entries, not 100`,
        );
      console.log(`\n2. distributed, GET ${path} (${Buffer.byteLength(JSON.stringify(entries))} bytes)`);
      results.entriesAt = {};
      for (const at of entriesConnections) {
        const [d, g] = await compare(`${readerUrl}${path}`, `${publicUrl}${path}`, token, at);
        all.push(d, g);
        const measured = {
          connections: at,
          direct: d,
          gateway: g,
          addedP99Ms: g.p99Ms - d.p99Ms,
          ratio: g.requestsPerSecond / d.requestsPerSecond,
        };
        results.entriesAt[at] = measured;
        results.entries ??= measured;
        console.log(`at ${at} connection${at === 1 ? '' : 's'}:`);
        printRows([
          ['reader direct', d],
          ['via gateway', g],
        ]);
        console.log(`throughput ratio: ${(measured.ratio * 100).toFixed(1)} % of direct`);
        console.log(
          `added p99: ${measured.addedP99Ms.toFixed(2)} ms (target ≤ ${TARGET_ENTRIES_ADDED_P99_MS} ms): ${verdict(measured.addedP99Ms <= TARGET_ENTRIES_ADDED_P99_MS)}`,
        );
      }
      const saturated = results.entriesAt[connections]?.direct;
      if (entriesRate > 0 && saturated) {
        const rate = Math.max(1, Math.round(saturated.requestsPerSecond * entriesRate));
        if (entriesPin) {
          pin('1', reader.child.pid);
          const natsPids = spawnSync('pgrep', ['-f', `nats-server .*-p ${nats.port} `], { encoding: 'utf8' });
          const rest = [process.pid, gateway.child.pid, identity.child.pid];
          for (const pid of [...rest, ...natsPids.stdout.split('\n').filter(Boolean)]) pin('0', pid);
        }
        // CPU time of the gateway in its own side's slices only (idle in the others), of the reader in all.
        const cpu = { gateway: 0, reader: 0, sliceStart: 0 };
        const readerCpuBefore = processCpuSeconds(reader.child.pid);
        const onSlice = (side, phase) => {
          if (side !== 1) return;
          const now = processCpuSeconds(gateway.child.pid);
          if (phase === 'start') cpu.sliceStart = now;
          else cpu.gateway += now - cpu.sliceStart;
        };
        const [d, g] = await pacedCompare({
          urls: [`${readerUrl}${path}`, `${publicUrl}${path}`],
          headers: { authorization: `Bearer ${token}` },
          rate,
          connections,
          slices: PACED_SLICES,
          sliceSeconds: PACED_SLICE_S,
          onSlice,
        });
        cpu.reader = processCpuSeconds(reader.child.pid) - readerCpuBefore;
        if (entriesPin) pin(`0-${cpus().length - 1}`, process.pid);
        const gatewayUs = (cpu.gateway / g.total) * 1e6;
        const readerUs = (cpu.reader / (d.total + g.total)) * 1e6;
        all.push(d, g);
        const measured = {
          connections,
          rate,
          direct: d,
          gateway: g,
          addedP99Ms: Math.round((g.p99Ms - d.p99Ms) * 10) / 10,
        };
        results.entriesPaced = measured;
        console.log(
          `at a fixed ${rate} req/s (${entriesRate * 100} % of the reader's saturated rate), at most ${connections} connections, ` +
            `evenly spaced (bench/lib/paced.mjs), ${PACED_SLICES} interleaved slices of ${PACED_SLICE_S} s each` +
            `${entriesPin ? ', the reader on CPU 1 and the rest on CPU 0' : ''}:`,
        );
        printRows([
          ['reader direct', d],
          ['via gateway', g],
        ]);
        console.log(
          `CPU per page (/proc, idle time included): the gateway ${gatewayUs.toFixed(0)} µs (its slices), the reader ${readerUs.toFixed(0)} µs (both sides')`,
        );
        console.log(
          `added p99: ${measured.addedP99Ms.toFixed(2)} ms (target ≤ ${TARGET_ENTRIES_ADDED_P99_MS} ms): ${verdict(measured.addedP99Ms <= TARGET_ENTRIES_ADDED_P99_MS)}`,
        );
      }
      await stopAll([gateway, reader, identity]);
    }

    // 3. Single process: its gateway (in process, then over loopback HTTP) against identity alone.
    if (only.has('single')) {
      const rows = [];
      if (identityAlone) rows.push(['identity alone, direct', identityAlone]);
      results.single = {};
      for (const inProcess of ['true', 'false']) {
        const [port, internalPort] = [await freePort(), await freePort()];
        const sp = startProcess(
          `single process (in process ${inProcess})`,
          'bench/gateway/single-process.mjs',
          {
            PORT: String(port),
            HOST: '127.0.0.1',
            GATEWAY_INTERNAL_PORT: String(internalPort),
            PUBLIC_URL: `http://127.0.0.1:${port}`,
            DATA_DIR: join(dataDir, `single-${inProcess}`),
            STORE_URL: 'memory:',
            BUS_URL: 'memory:',
            MURMUR_ADMIN_TOKEN: adminToken,
            GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
            GATEWAY_IN_PROCESS: inProcess,
            LOG_LEVEL: logLevel,
          },
          { profile: true, nodeFlags: nodeFlagsOf('single') },
        );
        const started = await readyLine(sp);
        const token = await createUserToken(started.identity, adminToken);
        const gatewayUrl = `http://127.0.0.1:${port}/account/me`;
        if (inProcess === 'true') {
          const [own, g] = await compare(`${started.identity}/account/me`, gatewayUrl, token);
          all.push(own, g);
          rows.push(['single process, its identity port', own], ['single process, gateway in process', g]);
          results.single.inProcess = g;
          results.single.ownIdentityPort = own;
        } else {
          await checkOnce(gatewayUrl, token);
          await load(gatewayUrl, token, warmupS);
          const g = await load(gatewayUrl, token, durationS);
          all.push(g);
          rows.push(['single process, gateway over HTTP', g]);
          results.single.overHttp = g;
        }
        await stopAll([sp]);
      }
      console.log('\n3. single process, GET /account/me');
      printRows(rows);
      const base = identityAlone ?? results.single.ownIdentityPort;
      const ratio = results.single.inProcess.requestsPerSecond / base.requestsPerSecond;
      results.single.ratio = ratio;
      console.log(
        `in process: ${(ratio * 100).toFixed(1)} % of identity ${identityAlone ? 'alone' : 'in the same process'} (target ≥ ${TARGET_SINGLE_RATIO * 100} %): ${verdict(ratio >= TARGET_SINGLE_RATIO)}; ` +
          `over HTTP: ${((results.single.overHttp.requestsPerSecond / base.requestsPerSecond) * 100).toFixed(1)} %; ` +
          `in process against its own identity port: ${((results.single.inProcess.requestsPerSecond / results.single.ownIdentityPort.requestsPerSecond) * 100).toFixed(1)} %`,
      );
    }
    if (printJson) console.log(JSON.stringify(results));

    const failures = all.reduce((n, s) => n + s.non2xx + s.errors + s.timeouts, 0);
    if (failures > 0)
      throw new BenchError(
        `${failures} requests failed (non-2xx, errors or timeouts); the numbers above are not valid.`,
      );
  } finally {
    await stopAll();
    feeds?.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void stopAll().then(() => process.exit(130));
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof BenchError ? `bench: ${err.message}` : err);
    process.exit(1);
  },
);
