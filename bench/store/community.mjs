#!/usr/bin/env node
// The embedded store holding a community's data (issue 16, docs/adr/0017-embedded-store-sqlite.md): one
// data directory in which the feeds benchmark (10,000 users, 200,000 posts), the archive benchmark
// (50,000 imported posts) and the reader benchmark (by default 1,000 subscriptions of 1,000 entries:
// a million entries) each leave their data, then the single process — what `npm start` runs, on the
// embedded store in that directory — started over all of it: how long it takes to listen, its RSS,
// and the reader's targets through its gateway. The benchmarks run first, one after another, each
// printing its own figures. Run after a build, from the repository root:
//   node bench/store/community.mjs [--subscriptions=1000] [--items=1000] [--samples=200]
//        [--users=10000] [--posts=200000] [--archive-posts=50000] [--keep-data]
// The reader benchmark's user is the first its identity service made (id 1); the single process's
// identity service starts empty, and the user it makes first has that id, so it reads those entries.
// Exits non-zero only when the benchmark could not run; a missed target is reported.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BenchError,
  flag,
  loadavg,
  log,
  machine,
  measure,
  option,
  processRssMiB,
  runMain,
  verdict,
} from '../lib/cli.mjs';
import { startSingleProcess } from '../gateway/single.mjs';
import { client, entryCount, logReadTargets, measureReads } from '../reader/reads.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUBSCRIPTIONS = option('subscriptions', '1000');
const ITEMS = option('items', '1000');
const SAMPLES = Number(option('samples', '200'));
// The feeds and archive benchmarks' sizes (their defaults).
const USERS = option('users', '10000');
const POSTS = option('posts', '200000');
const ARCHIVE_POSTS = option('archive-posts', '50000');
// Issue 16's target for the start of a process over a community's data.
const START_TARGET_MS = 5000;

/** Runs `node <script> <args>` from the repository root, its output shown; rejects if it fails. */
function runBenchmark(script, args) {
  log(`\n== node ${script} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new BenchError(`${script} exited with ${code}`)),
    );
  });
}

/** Bytes under `dir`, each subdirectory (a service's store) on its own. */
function sizes(dir) {
  const total = (path) => {
    const s = statSync(path);
    if (!s.isDirectory()) return s.size;
    return readdirSync(path).reduce((sum, name) => sum + total(join(path, name)), 0);
  };
  return Object.fromEntries(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => [e.name, total(join(dir, e.name))]),
  );
}

/** A process's resident set in whole MiB. */
const rssMiB = (pid) => Math.round(processRssMiB(pid));

runMain(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-community-'));
  try {
    log(
      `community benchmark on ${machine()}, Node ${process.version}, load ${loadavg()}; data in ${dataDir}`,
    );
    const dirArg = `--data-dir=${dataDir}`;
    await runBenchmark('bench/feeds/run.mjs', [
      dirArg,
      '--skip-compare',
      `--users=${USERS}`,
      `--posts=${POSTS}`,
    ]);
    await runBenchmark('bench/archive/run.mjs', [dirArg, `--posts=${ARCHIVE_POSTS}`]);
    await runBenchmark('bench/reader/run.mjs', [
      dirArg,
      '--skip-parse',
      '--skip-poll',
      `--subscriptions=${SUBSCRIPTIONS}`,
      `--items=${ITEMS}`,
    ]);

    const stores = sizes(dataDir);
    const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
    log(`\n== the single process over ${dataDir}`);
    log(
      `  stores: ${Object.entries(stores)
        .map(([name, bytes]) => `${name} ${mb(bytes)}`)
        .join(', ')}`,
    );
    const single = await startSingleProcess({ dataDir });
    try {
      const startedRss = rssMiB(single.child.pid);
      log(`  listening ${Math.round(single.readyMs)} ms after its spawn; RSS ${startedRss} MiB`);
      const call = client({ gatewayUrl: single.base, publicUrl: single.base }, single.token);
      const first = await call('GET', '/feeds/v2/unread_entries.json');
      const unread = first.json().length;
      const total = await entryCount(call);
      log(
        `  first GET unread ${Math.round(first.ms)} ms (the reader's view built): ${unread} unread of ${total}`,
      );
      const expected = Number(SUBSCRIPTIONS) * Number(ITEMS);
      if (total !== expected || unread === 0)
        throw new BenchError(
          `user 1 reads ${total} entries (${unread} unread), not the reader benchmark's ${expected}`,
        );
      const reads = await measureReads(call, { samples: SAMPLES, total });
      log(`  RSS after the reader's measurements ${rssMiB(single.child.pid)} MiB`);
      // The other services' data read as well: the archive builds its site's read model on the first
      // read, the feeds service holds its timelines' index from the start.
      const archive = '/imported/archive/1/recent.json';
      const archiveFirst = await call('GET', archive);
      const posts = archiveFirst.json().items?.length ?? 0;
      log(
        `  first GET ${archive} ${Math.round(archiveFirst.ms)} ms (the archive's read model built), ${posts} items`,
      );
      if (posts === 0)
        throw new BenchError(`${archive} has no items: the archive benchmark's site is not site 1`);
      const deep = Math.max(0, Number(ARCHIVE_POSTS) - 50);
      await measure(
        `GET ${archive}?offset=${deep}`,
        50,
        async () => (await call('GET', `${archive}?offset=${deep}`)).ms,
      );
      // User 2, not 1: the single process's first user (id 1, the reader's) takes over the feeds
      // benchmark's user 1 when identity announces it.
      await measure(
        "GET /feeds/u2.json (the feeds benchmark's user followed by 5,000)",
        50,
        async () => (await call('GET', '/feeds/u2.json')).ms,
      );
      const rss = rssMiB(single.child.pid);
      log(`  RSS after every service's data was read ${rss} MiB`);
      log('targets:');
      log(
        `  start ${Math.round(single.readyMs)} ms ≤ ${START_TARGET_MS}: ${verdict(single.readyMs <= START_TARGET_MS)}`,
      );
      logReadTargets(reads, rss);
      log(`load average after: ${loadavg()}`);
    } finally {
      await single.stop();
    }
  } finally {
    if (flag('keep-data')) log(`kept ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
});
