#!/usr/bin/env node
// The reader and feeds benchmarks' targets on the MongoDB-wire store beside the embedded one: the same data
// (each benchmark seeds deterministically: the same local feeds, the same generated users and posts), the
// same sizes, in the same run, one after the other, each with the load average before and after. MONGO_URL
// names the server; on these machines that is FerretDB over PostgreSQL (docs/adr/0021), so:
//   node scripts/ferretdb.mjs -- node bench/store/mongodb.mjs [--subscriptions=100] [--items=100]
//        [--unread=5000] [--users=2000] [--posts=20000] [--samples=100] [--only=reader|feeds] [--json]
// A record, not a target: FerretDB's figures say how the distributed path behaves here, not how fast MongoDB is.
// Exits non-zero only when a benchmark could not run; the targets are each benchmark's (bench/README.md).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError, flag, loadavg, log, machine, option, runMain } from '../lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLES = option('samples', '100');
const SUBSCRIPTIONS = option('subscriptions', '100');
const ITEMS = option('items', '100');
const UNREAD = option('unread', '5000');
const USERS = option('users', '2000');
const POSTS = option('posts', '20000');
// The feeds benchmark's heavy user follows, and its popular user is followed by, a share of USERS.
const HEAVY_FOLLOWS = String(Math.floor(Number(USERS) / 5));
const POPULAR_FOLLOWERS = String(Math.floor(Number(USERS) / 2));
/** --only=reader or --only=feeds: one of the two (each still on both stores, one after the other). */
const ONLY = option('only', '');

/** Runs a benchmark with --json; resolves with its JSON (stdout), its own report shown (stderr). */
function runJson(script, args, env = {}) {
  log(`\n== node ${script} ${args.join(' ')}   (load ${loadavg()})`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args, '--json'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new BenchError(`${script} exited with ${code}`));
      try {
        resolve(JSON.parse(out.slice(out.indexOf('{'))));
      } catch (err) {
        reject(new BenchError(`${script}: no JSON on stdout (${err.message})`));
      }
    });
  });
}

async function main() {
  if (!process.env.MONGO_URL)
    throw new BenchError('MONGO_URL is not set: node scripts/ferretdb.mjs -- node bench/store/mongodb.mjs');
  log(
    `store benchmark, embedded vs MongoDB-wire (${process.env.MONGO_URL}) on ${machine()}, Node ${process.version}`,
  );
  const rows = [];
  const run = async (name, script, args, env, pick) => {
    for (const store of ['file', 'mongodb']) {
      const before = loadavg();
      const result = await runJson(script, [...args, `--store=${store}`], env);
      const after = loadavg();
      for (const [measure, value] of Object.entries(pick(result)))
        rows.push({
          benchmark: name,
          store: store === 'file' ? 'embedded (SQLite)' : 'MongoDB-wire',
          measure,
          ...value,
          before,
          after,
        });
    }
  };
  if (ONLY !== 'feeds')
    await run(
      'reader',
      'bench/reader/run.mjs',
      [
        `--subscriptions=${SUBSCRIPTIONS}`,
        `--items=${ITEMS}`,
        `--unread=${UNREAD}`,
        `--samples=${SAMPLES}`,
        '--skip-parse',
        '--skip-poll',
      ],
      {},
      ({ reads }) => ({
        'unread ids (p95 ≤ 50 ms)': reads.unread,
        'entries, first page (p95 ≤ 50 ms)': reads.entriesFirst,
        'entries, deep page (p95 ≤ 50 ms)': reads.entriesDeep,
        'mark 1,000 read (p95 ≤ 100 ms)': reads.markRead,
      }),
    );
  if (ONLY !== 'reader')
    await run(
      'feeds',
      'bench/feeds/run.mjs',
      [`--users=${USERS}`, `--posts=${POSTS}`, `--samples=${SAMPLES}`, '--skip-compare'],
      { BENCH_HEAVY_FOLLOWS: HEAVY_FOLLOWS, BENCH_POPULAR_FOLLOWERS: POPULAR_FOLLOWERS },
      (r) => ({
        [`timeline, follows ${HEAVY_FOLLOWS} (p95 ≤ 20 ms)`]: r.timelineHeavy,
        'mentions (p95 ≤ 20 ms)': r.mentions,
        'If-None-Match → 304 (p95 ≤ 5 ms)': r.notModified,
        'publish → timeline (max ≤ 1,000 ms)': r.publishToTimeline,
      }),
    );
  log(
    `\nsizes: reader ${SUBSCRIPTIONS} subscriptions × ${ITEMS} entries, ${UNREAD} unread; feeds ${USERS} users, ${POSTS} posts; ${SAMPLES} samples`,
  );
  log(
    'benchmark  store               measure                                   p50 ms   p95 ms   max ms   load before → after',
  );
  for (const r of rows) {
    log(
      `${r.benchmark.padEnd(10)} ${r.store.padEnd(19)} ${r.measure.padEnd(41)} ${String(r.p50).padStart(6)} ${String(r.p95 ?? '').padStart(8)} ${String(r.max).padStart(8)}   ${r.before.split(' ').slice(0, 3).join(' ')} → ${r.after.split(' ').slice(0, 3).join(' ')}`,
    );
  }
  if (flag('json')) console.log(JSON.stringify(rows, null, 2));
}

runMain(main);
