#!/usr/bin/env node
// Where the single process's memory goes (issue 38; docs/operations.md "Memory"): `murmur start` as
// `npm start` runs it (its Node flags, plus --expose-gc and bench/memory/probe.mjs), on the file store
// and on the memory store, measured idle and after a reader load through its gateway — a user
// subscribing to local feeds, paging through entries and marking them read. For each moment: RSS and
// PSS (/proc/PID/status, smaps_rollup), the V8 heap by space, memory outside it (external, array
// buffers), what is left for native allocations (SQLite's page caches, malloc, libuv), and each SQLite
// database's page-cache ceiling and size. After a build, from the repository root:
//   node bench/memory/run.mjs [--stores=file,memory] [--feeds=300] [--items=50] [--json]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError, flag, freePort, loadavg, log, mib, option, runMain } from '../lib/cli.mjs';
import { startFeedHosts } from '../reader/feeds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const STORES = option('stores', 'file,memory').split(',');
const FEEDS = Number(option('feeds', '300'));
const ITEMS = Number(option('items', '50'));
/** What `npm start` passes (scripts/murmur.mjs SINGLE_PROCESS_NODE_FLAGS). */
const NODE_FLAGS = ['--initial-old-space-size=128'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Rss, Pss, Private_Dirty, Shared_Clean… of process `pid` in bytes (/proc/PID/smaps_rollup). */
function smapsRollup(pid) {
  const out = {};
  for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n')) {
    const m = /^(\w+):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]) * 1024;
  }
  return out;
}

async function startSingle(store) {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-memory-'));
  const port = await freePort();
  const adminToken = randomBytes(24).toString('hex');
  const probeFile = join(dataDir, 'probe');
  const child = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      '--expose-gc',
      '--import',
      join(here, 'probe.mjs'),
      join(root, 'cli/dist/main.js'),
      'start',
    ],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        ...(store === 'memory' ? { STORE_URL: 'memory:' } : {}),
        MURMUR_ADMIN_TOKEN: adminToken,
        LOG_LEVEL: 'warn',
        GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
        READER_SUBSCRIBE_LIMIT_PER_MINUTE: '1000000',
        MURMUR_MEMORY_PROBE: probeFile,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* not yet */
    }
    if (i > 600 || child.exitCode !== null) throw new BenchError('the single process did not start');
    await sleep(100);
  }
  /** The probe's report (after a GC with `gc`) and /proc's view, at the same moment. */
  const snapshot = async (gc = false) => {
    const file = `${probeFile}.json`;
    rmSync(file, { force: true });
    if (gc) writeFileSync(`${probeFile}.gc`, '');
    child.kill('SIGUSR2');
    for (let i = 0; !existsSync(file); i++) {
      if (i > 200) throw new BenchError('the memory probe did not answer');
      await sleep(50);
    }
    return { ...JSON.parse(readFileSync(file, 'utf8')), smaps: smapsRollup(child.pid) };
  };
  return {
    base,
    adminToken,
    snapshot,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A user subscribing to FEEDS feeds of ITEMS entries, reading pages and marking entries read. */
async function readerLoad(single, hosts) {
  const res = await fetch(`${single.base}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${single.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'memory', email: 'memory@example.com' }),
  });
  if (res.status !== 201) throw new BenchError(`creating the user: ${res.status} ${await res.text()}`);
  const { token } = await res.json();
  const call = async (method, path, body) => {
    const r = await fetch(`${single.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (r.status >= 400) throw new BenchError(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.status === 204 ? null : r.json();
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < FEEDS)
        await call('POST', '/feeds/v2/subscriptions.json', { feed_url: hosts.url(next++) });
    }),
  );
  const unread = await call('GET', '/feeds/v2/unread_entries.json');
  for (let page = 1; page <= 50; page++)
    await call('GET', `/feeds/v2/entries.json?per_page=100&page=${page}`);
  for (let i = 0; i + 1000 <= Math.min(unread.length, 10_000); i += 1000)
    await call('DELETE', '/feeds/v2/unread_entries.json', { unread_entries: unread.slice(i, i + 1000) });
  return { entries: FEEDS * ITEMS, unread: unread.length };
}

/** The breakdown of one snapshot, in MiB. */
function breakdown(s) {
  const m = s.memoryUsage;
  const heapCommitted = s.heapStatistics.total_physical_size;
  const spaces = Object.fromEntries(
    s.heapSpaces.map((sp) => [
      sp.space_name,
      { used: mib(sp.space_used_size), size: mib(sp.physical_space_size) },
    ]),
  );
  return {
    rss: mib(s.smaps.Rss),
    pss: mib(s.smaps.Pss),
    privateDirty: mib(s.smaps.Private_Dirty),
    sharedClean: mib(s.smaps.Shared_Clean),
    heapUsed: mib(m.heapUsed),
    heapCommitted: mib(heapCommitted),
    external: mib(m.external),
    arrayBuffers: mib(m.arrayBuffers),
    // Private memory V8 does not account for: SQLite's page caches and the rest of malloc (less the
    // array buffers, which V8 counts as external), libuv, thread stacks.
    nativeOther: mib(s.smaps.Private_Dirty + s.smaps.Private_Clean - heapCommitted - m.external),
    spaces,
    sqlite: s.sqlite.map((d) => ({
      name: d.name.replace(/^.*\/([^/]+)\/store\.sqlite$/, '$1'),
      cacheCeiling: mib(d.cacheCeilingBytes),
      size: Math.round((d.databaseBytes / 1024 / 1024) * 10) / 10,
    })),
  };
}

function print(store, moment, b) {
  log(
    `  ${store.padEnd(6)} ${moment.padEnd(16)} RSS ${b.rss} PSS ${b.pss} (private dirty ${b.privateDirty}, shared clean ${b.sharedClean}) | ` +
      `V8 heap used ${b.heapUsed} committed ${b.heapCommitted} | external ${b.external} (array buffers ${b.arrayBuffers}) | native other ${b.nativeOther}  [MiB]`,
  );
}

async function main() {
  log(`memory of the single process (bench/memory/run.mjs), Node ${process.version}, load ${loadavg()}`);
  const hosts = await startFeedHosts({ hosts: 20, itemsPerFeed: ITEMS, newPerGeneration: 5 });
  const results = {};
  try {
    for (const store of STORES) {
      const single = await startSingle(store);
      try {
        await sleep(5000);
        const idle = breakdown(await single.snapshot());
        print(store, 'idle', idle);
        const load = await readerLoad(single, hosts);
        const loaded = breakdown(await single.snapshot());
        print(store, 'after load', loaded);
        const collected = breakdown(await single.snapshot(true));
        print(store, 'after load + GC', collected);
        log(
          `    heap spaces after load + GC (used/size MiB): ${Object.entries(collected.spaces)
            .map(([k, v]) => `${k} ${v.used}/${v.size}`)
            .join(', ')}`,
        );
        log(
          `    SQLite databases (cache ceiling MiB / size MiB): ${collected.sqlite.map((d) => `${d.name} ${d.cacheCeiling}/${d.size}`).join(', ')}`,
        );
        results[store] = { load, idle, loaded, collected };
      } finally {
        await single.stop();
      }
    }
  } finally {
    await hosts.close();
  }
  log(`load ${loadavg()}`);
  if (flag('json')) console.log(JSON.stringify(results));
}

runMain(main);
