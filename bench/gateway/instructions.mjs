#!/usr/bin/env node
// Instructions per request — counted by valgrind's callgrind, not timed — of GET /account/me served
// three ways: by the identity service alone, at the single process's own identity port, and through the
// single process's gateway. Time and CPU time per request move by ±10–30 % between identical runs on
// the shared VMs these benchmarks run on (cpu-per-request.mjs: 103–172 µs for one process in one run);
// the instructions a request executes do not depend on the neighbours' load. Instructions are not time
// — a cache miss costs more in a larger heap, a system call costs what the kernel spends — so this
// complements the wrk benchmarks; it does not replace them.
//
// What is counted: the instructions of the event loop's I/O phase (libuv's `uv__io_poll`, inclusive:
// reading and parsing requests, every hook and handler, writing the answers, and the collections their
// allocations trigger), per request. Left out: timers (`uv__run_timers`) and V8's helper threads. A
// process also works while idle — its timers, its metrics' event-loop monitor, its job pollers — at a
// rate per second of wall time; under valgrind a window lasts some fifty times longer than it would
// natively, so that idle work, counted whole, would weigh fifty times more than in a real run (and it
// moves with the window's length: the first version of this script counted it and the same process
// gave 120–174k a request).
//
// Each process runs under `valgrind --tool=callgrind --instr-atstart=no` (nothing counted while it
// starts and its code warms up); then counting is switched on (`callgrind_control -i on`), and each
// window of `--requests` requests is counted from zeroed counters (`-z`) and written out (`-d`) for
// `callgrind_annotate --inclusive=yes`. Valgrind runs one thread at a time, so V8's optimising compiler
// finishes its work later than natively: the first windows of a path may still be warming up, and the
// lowest windows are its steady state. Requests are sent by autocannon from this process,
// `--connections` at a time. Needs valgrind (Debian package `valgrind`). Linux only. After a build:
//   node bench/gateway/instructions.mjs [--paths=alone,direct,gateway] [--requests=2000]
//        [--windows=5] [--warmup=40000] [--connections=8] [--keep=<dir>] [--names [--top=25]]
//        [--cache-sim [--ll=<bytes>,<ways>,<line>]] [--alone-flags=<f>,<f>] [--single-flags=<f>,<f>]
//        [--no-heap-floor] [--miss-events=I1mr,D1mr,D1mw]
// --keep=<dir> keeps the windows' profiles there (callgrind.out.<pid>.<n>), for callgrind_annotate.
// --names starts the processes with V8's `--perf-basic-prof`, whose /tmp/perf-<pid>.map names the
// JavaScript functions callgrind knows only by address, and prints each path's `--top` functions by
// instructions a request (their own, not what they call; every thread) in its last window — and, with both paths of
// the single process, the functions whose instructions differ most between them: where the lane's go.
// --cache-sim has callgrind simulate the caches as well (slower again): besides instructions, reads and
// writes, it prints the first-level and last-level misses a request of the same phase — the memory
// behaviour that instructions alone cannot show, as deterministic as they are. --ll sets the simulated
// last-level cache (valgrind's --LL; by default the machine's). --alone-flags and --single-flags add
// node flags to identity alone and the single process (after the single process's launch flags), to
// compare flags by their counts; --no-heap-floor starts the single process without its heap floor.
// With --names and --cache-sim the tables by function carry a second column, the misses of
// --miss-events (by default the first level's; ILmr,DLmr,DLmw for the last level's).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BenchError, flag, listOption, option, runMain } from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';
import { startIdentityAlone } from './wrk.mjs';

const PATHS = option('paths', 'alone,direct,gateway').split(',');
const REQUESTS = Number(option('requests', '2000'));
const WINDOWS = Number(option('windows', '5'));
const WARMUP = Number(option('warmup', '40000'));
const CONNECTIONS = Number(option('connections', '8'));
const KEEP = option('keep', '');
const NAMED = flag('names');
const TOP = Number(option('top', '25'));
const CACHE_SIM = flag('cache-sim');
const LL = option('ll', '');
const ALONE_FLAGS = listOption('alone-flags');
const SINGLE_FLAGS = listOption('single-flags');
const HEAP_FLOOR = !flag('no-heap-floor');
const MISS_EVENTS = new Set(option('miss-events', 'I1mr,D1mr,D1mw').split(','));

const NAMES = {
  alone: 'identity alone',
  direct: 'single process, its identity port',
  gateway: 'single process, through its gateway',
};
for (const path of PATHS)
  if (!NAMES[path]) throw new BenchError(`unknown path ${path} (alone, direct, gateway)`);

/** valgrind's command line, its profiles written to `dumps`. */
const launcher = (dumps) => [
  'valgrind',
  '--tool=callgrind',
  '--instr-atstart=no',
  `--callgrind-out-file=${dumps}/callgrind.out.%p`,
  // V8 writes machine code into memory it then runs: valgrind must look for such code everywhere.
  '--smc-check=all',
  '--quiet',
  ...(CACHE_SIM ? ['--cache-sim=yes', ...(LL ? [`--LL=${LL}`] : [])] : []),
];

function requireValgrind() {
  // callgrind_annotate --version prints its version but exits 255; `which` finds all three alike.
  for (const tool of ['valgrind', 'callgrind_control', 'callgrind_annotate']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      throw new BenchError(`${tool} is needed: apt-get install valgrind`);
    }
  }
}

/**
 * `callgrind_control <args> <pid>`. It finds the process by names that carry the environment's HOST,
 * which every process here is started with as 127.0.0.1 (the address it listens on).
 */
const control = (pid, ...args) =>
  execFileSync('callgrind_control', [...args, String(pid)], {
    env: { ...process.env, HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();

/** The newest profile written to `dumps`. */
function newestDump(dumps) {
  const files = readdirSync(dumps)
    .filter((f) => f.startsWith('callgrind.out.'))
    .map((f) => join(dumps, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

// callgrind_annotate prints each event's count followed by its share, `1,234 (12.3%)`; a zero may be
// printed as `0` or `.`, without a share.
const withoutShares = (line) => line.replace(/\(\s*[\d.]+%\)/g, '');
const countsOf = (text) =>
  text
    .trim()
    .split(/\s+/)
    .map((v) => (v === '.' ? 0 : Number(v.replaceAll(',', ''))));

/**
 * The inclusive cost of `fn` in a profile (callgrind_annotate's inclusive view), by event: `Ir`
 * (instructions) always; with --cache-sim also `Dr`, `Dw` (data reads, writes), `I1mr`, `D1mr`, `D1mw`
 * (first-level misses) and `ILmr`, `DLmr`, `DLmw` (last-level misses).
 */
function inclusive(file, fn) {
  const out = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
  const events = /^Events shown:\s+(.*)$/m.exec(out)?.[1].trim().split(/\s+/);
  const line = out.split('\n').find((l) => l.includes(`:${fn} [`));
  if (!line || !events) throw new BenchError(`${fn} is not in ${file}`);
  const values = countsOf(withoutShares(line));
  return Object.fromEntries(events.map((e, i) => [e, values[i]]));
}

/** Address ranges of the JavaScript functions V8 compiled in process `pid` (`--perf-basic-prof`). */
function perfMap(pid) {
  const rows = readFileSync(`/tmp/perf-${pid}.map`, 'utf8')
    .split('\n')
    .map((line) => /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3] }));
  return rows.sort((a, b) => a.start - b.start);
}

/** The name of the function at `address`, or the address. */
function nameAt(rows, address) {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].start <= address) lo = mid + 1;
    else hi = mid - 1;
  }
  const row = rows[hi];
  return row && address < row.end ? row.name : `0x${address.toString(16)}`;
}

/**
 * Cost by function (their own, not what they call) in a profile, JavaScript functions named from
 * `rows`: `[instructions, misses]` (the sum of --miss-events, zero without --cache-sim).
 */
function byFunction(file, rows) {
  const out = execFileSync('callgrind_annotate', ['--threshold=100', file], {
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
  const events = /^Events shown:\s+(.*)$/m.exec(out)?.[1].trim().split(/\s+/) ?? ['Ir'];
  const costs = new Map();
  for (const line of out.split('\n')) {
    // Every event's count, then the function.
    const m = new RegExp(`^\\s*((?:(?:[\\d,]+|\\.)\\s+){${events.length}})(\\S.*)$`).exec(
      withoutShares(line),
    );
    if (!m || !/\d/.test(m[1]) || m[2].includes('PROGRAM TOTALS')) continue;
    const counts = countsOf(m[1]);
    const jit = /^\?\?\?:0x([0-9a-f]+)/.exec(m[2]);
    const name = jit
      ? nameAt(rows, parseInt(jit[1], 16))
      : m[2].replace(/^\S*?:/, '').replace(/ \[.*\]$/, '');
    const misses = events.reduce((sum, e, i) => sum + (MISS_EVENTS.has(e) ? counts[i] : 0), 0);
    const [ir, miss] = costs.get(name) ?? [0, 0];
    costs.set(name, [ir + counts[0], miss + misses]);
  }
  return costs;
}

/** The `TOP` rows of `[name, [instructions, misses] a request]`, largest first by `by` (0, 1), as lines. */
const table = (entries, by = 0) =>
  entries
    .sort((a, b) => b[1][by] - a[1][by])
    .slice(0, TOP)
    .map(
      ([name, [ir, miss]]) =>
        `    ${ir.toFixed(0).padStart(8)}${CACHE_SIM ? miss.toFixed(0).padStart(8) : ''}  ${name.slice(0, 110)}`,
    )
    .join('\n');

/** Sends exactly `amount` requests, `CONNECTIONS` at a time; throws on any answer but 200. */
async function send(url, token, amount) {
  const result = await autocannon({
    url,
    connections: Math.min(CONNECTIONS, amount),
    amount,
    headers: { authorization: `Bearer ${token}` },
    timeout: 60,
  });
  if (result['2xx'] !== amount || result.errors > 0 || result.timeouts > 0)
    throw new BenchError(`${url}: ${result['2xx']} of ${amount} answered 200 (${result.errors} errors)`);
}

/** The I/O phase's instructions per request in `WINDOWS` windows of `REQUESTS` requests; counting on. */
async function windows(pid, url, token, dumps) {
  // A first window lets valgrind translate the code this path runs with counting on.
  await send(url, token, REQUESTS);
  const perRequest = [];
  const memory = [];
  let last = '';
  for (let i = 0; i < WINDOWS; i++) {
    control(pid, '-z');
    await send(url, token, REQUESTS);
    control(pid, '-d');
    last = newestDump(dumps);
    const events = inclusive(last, 'uv__io_poll');
    perRequest.push(events.Ir / REQUESTS);
    memory.push(Object.fromEntries(Object.entries(events).map(([e, n]) => [e, n / REQUESTS])));
  }
  return { perRequest, memory, last };
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const k = (x) => `${(x / 1000).toFixed(1)}k`;

runMain(async () => {
  requireValgrind();
  const dumps = KEEP
    ? (mkdirSync(KEEP, { recursive: true }), KEEP)
    : mkdtempSync(join(tmpdir(), 'murmur-bench-callgrind-'));
  const LAUNCHER = launcher(dumps);
  const results = {};
  // Per path, with --names: instructions a request by function in its last window.
  const functions = {};
  // Per path, with --cache-sim: the events a request of its lowest window by instructions.
  const caches = {};
  const nodeFlags = NAMED ? ['--perf-basic-prof'] : [];
  const measure = async (pid, paths, token) => {
    // Warm up before counting: V8 tiers code up by how often it runs.
    for (const [, url] of paths) await send(url, token, WARMUP);
    control(pid, '-i', 'on');
    for (const [path, url] of paths) {
      const { perRequest, memory, last } = await windows(pid, url, token, dumps);
      results[path] = perRequest;
      if (CACHE_SIM) caches[path] = memory[perRequest.indexOf(sorted(perRequest)[0])];
      if (NAMED) {
        const costs = byFunction(last, perfMap(pid));
        functions[path] = new Map(
          [...costs].map(([name, [ir, miss]]) => [name, [ir / REQUESTS, miss / REQUESTS]]),
        );
      }
      process.stdout.write(
        `  ${NAMES[path].padEnd(36)} ${perRequest.map(k).join(' / ')} ` +
          `(median ${k(median(perRequest))}, lowest ${k(sorted(perRequest)[0])})\n`,
      );
    }
  };
  process.stdout.write(
    `GET /account/me, ${WINDOWS} windows of ${REQUESTS} requests a path, ${CONNECTIONS} connections, after ` +
      `${WARMUP} uncounted; instructions of the serving process's event-loop I/O phase a request (callgrind)\n`,
  );
  try {
    if (PATHS.includes('alone')) {
      const alone = await startIdentityAlone({
        launcher: LAUNCHER,
        startMs: 300_000,
        nodeFlags: [...nodeFlags, ...ALONE_FLAGS],
      });
      try {
        await measure(alone.pid, [['alone', alone.me]], alone.token);
      } finally {
        await alone.stop();
        if (NAMED) rmSync(`/tmp/perf-${alone.pid}.map`, { force: true });
      }
    }
    const inSingle = PATHS.filter((p) => p !== 'alone');
    if (inSingle.length > 0) {
      const single = await startSingleProcess({
        launcher: LAUNCHER,
        execArgv: [...nodeFlags, ...SINGLE_FLAGS],
        heapFloor: HEAP_FLOOR,
      });
      try {
        await measure(
          single.child.pid,
          inSingle.map((p) => [p, single.urls[p]]),
          single.token,
        );
      } finally {
        await single.stop();
        if (NAMED) rmSync(`/tmp/perf-${single.child.pid}.map`, { force: true });
      }
    }
  } finally {
    if (!KEEP) rmSync(dumps, { recursive: true, force: true });
  }
  const columns = CACHE_SIM ? `instructions and misses (${[...MISS_EVENTS].join(' + ')})` : 'instructions';
  for (const [path, costs] of Object.entries(functions))
    process.stdout.write(
      `  ${NAMES[path]}, by function, ${columns} a request (last window):\n${table([...costs])}\n`,
    );
  // What one path spends more than another, function by function: the lane (the identity port to the
  // gateway path) and the larger process (identity alone to the identity port).
  for (const [from, to] of [
    ['direct', 'gateway'],
    ['alone', 'direct'],
  ]) {
    if (!functions[from] || !functions[to]) continue;
    const names = new Set([...functions[from].keys(), ...functions[to].keys()]);
    const more = [...names].map((name) => {
      const [ti, tm] = functions[to].get(name) ?? [0, 0];
      const [fi, fm] = functions[from].get(name) ?? [0, 0];
      return [name, [ti - fi, tm - fm]];
    });
    const what = `what ${NAMES[to]} spends more than ${NAMES[from]}, by function`;
    process.stdout.write(`  ${what} (${columns}):\n${table(more)}\n`);
    if (CACHE_SIM) process.stdout.write(`  the same, by misses:\n${table(more, 1)}\n`);
  }
  if (CACHE_SIM) {
    const fmt = (n) => (n >= 1000 ? k(n) : n.toFixed(1)).padStart(8);
    const events = ['Ir', 'Dr', 'Dw', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw'];
    process.stdout.write(
      `  a request, from each path's lowest window by instructions (callgrind's cache simulation):\n` +
        `    ${''.padEnd(36)} ${events.map((e) => e.padStart(8)).join(' ')}\n`,
    );
    for (const [path, costs] of Object.entries(caches))
      process.stdout.write(
        `    ${NAMES[path].padEnd(36)} ${events.map((e) => fmt(costs[e] ?? 0)).join(' ')}\n`,
      );
  }
  // Steady state: each path's lowest window (see the note on warming up above).
  const low = Object.fromEntries(Object.entries(results).map(([p, xs]) => [p, sorted(xs)[0]]));
  const ratio = (a, b) => `${((low[b] / low[a]) * 100).toFixed(1)} %`;
  process.stdout.write('  from the lowest windows:\n');
  if (low.alone && low.gateway)
    process.stdout.write(`    the gateway path's ceiling: ${ratio('gateway', 'alone')} of identity alone\n`);
  if (low.direct && low.gateway)
    process.stdout.write(
      `    the gateway path's ceiling: ${ratio('gateway', 'direct')} of its own identity port\n`,
    );
  if (low.alone && low.direct)
    process.stdout.write(`    its identity port's ceiling: ${ratio('direct', 'alone')} of identity alone\n`);
});
