// What the benchmarks' run scripts share (bench/README.md): command-line options, percentiles and the
// summary of samples, runs per CPU-second, the machine's load average, a free port, the system under test forked into its
// own process and asked over IPC, and the lines every run prints about its machine and targets.
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

/** A failure that makes the benchmark's numbers meaningless: printed as one line, exit code 1. */
export class BenchError extends Error {}

/** Progress and results go to stderr, so stdout holds only what `--json` asks for. */
export const log = (...args) => console.error(...args);

/** The value of `--name=value` on the command line, or `fallback`. */
export const option = (name, fallback) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
};

/** Whether `--name` is on the command line. */
export const flag = (name) => process.argv.includes(`--${name}`);
/**
 * A benchmark's data directory: `--data-dir=<dir>` when given (created if missing and kept afterwards, so
 * that several benchmarks can leave their data in one directory: bench/store/community.mjs), otherwise a
 * fresh temporary directory that `remove()` deletes.
 */
export function benchDataDir(prefix) {
  const given = option('data-dir', '');
  if (given) {
    mkdirSync(given, { recursive: true });
    return { dir: resolve(given), remove() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `--<name>=a,b,c` as a list (empty when absent). */
export const listOption = (name) => option(name, '').split(',').filter(Boolean);

/** The nearest-rank percentile `p` (0–100) of samples sorted ascending. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The median and the interquartile range (nearest rank) of `values`, in any order. */
export function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { q1: percentile(sorted, 25), median: percentile(sorted, 50), q3: percentile(sorted, 75) };
}

/**
 * The order to measure `items` in on cycle `cycle` of an interleaved run: as given, then reversed every
 * other cycle, so that no item always runs first (bench/gateway/wrk-single.mjs says why interleave).
 */
export const cycleOrder = (cycle, items) => (cycle % 2 ? [...items].reverse() : items);

/** Count, p50, p95, p99 and max of millisecond samples, rounded to 0.1 ms. */
export function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x) => Math.round(x * 10) / 10;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/**
 * Runs `once(i)` `warmup` times (at most n), then n times keeping what each returns (milliseconds);
 * logs and returns their stats.
 */
export async function measure(label, n, once, { warmup = 30 } = {}) {
  for (let i = 0; i < Math.min(warmup, n); i++) await once(i);
  const samples = [];
  for (let i = 0; i < n; i++) samples.push(await once(i));
  const result = stats(samples);
  log(`  ${label}: p50 ${result.p50} ms, p95 ${result.p95} ms (n=${result.n}, max ${result.max} ms)`);
  return result;
}

/**
 * Runs `once` for about `seconds` after 5 warm-up runs; returns runs per second of this process's CPU
 * time, not wall time: the machine is shared, and other work stretches the wall.
 */
export async function ratePerCpuSecond(once, seconds = 2) {
  for (let i = 0; i < 5; i++) await once();
  let runs = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - started < seconds * 1000) {
    await once();
    runs++;
  }
  const used = process.cpuUsage(cpu);
  return runs / ((used.user + used.system) / 1e6);
}

/** The machine's load average as /proc/loadavg gives it (Linux), to print next to every number. */
export const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();

/** CPU time (user + system, seconds) process `pid` has used so far, from /proc/<pid>/stat (Linux). */
export function processCpuSeconds(pid) {
  // Fields after the command name (which may hold spaces): utime is the 14th field, stime the 15th,
  // in USER_HZ ticks (100 a second on Linux).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The resident set of process `pid` in MiB (not rounded), from /proc/<pid>/status (Linux). */
export function processRssMiB(pid) {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new BenchError(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

export const mib = (bytes) => Math.round(bytes / 1024 / 1024);

export const verdict = (ok) => (ok ? 'met' : 'MISSED');

/** `2 × <cpu model>`: the machine line of every benchmark. */
export const machine = () => `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;

/** A port free on 127.0.0.1 now, for a process that must know its URL before it listens. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Node flags of a forked server: a GC to call for the live heap, a heap cap, a CPU profile. */
export function serverExecArgv({ heapMb = 0, cpuProfDir = '' } = {}) {
  return [
    '--expose-gc',
    ...(heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : []),
    ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
  ];
}

/**
 * Forks `file` (a benchmark's server.mjs) with `env` on top of this process's environment and waits
 * for its first IPC message. Returns that message's fields, the child's `pid`, `ask(message, key)`
 * (resolves with `reply[key]` of the first reply that has it), `memory()` and `stop()`.
 */
export async function forkServer(file, { execArgv = ['--expose-gc'], env = {} } = {}) {
  const child = fork(file, [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new BenchError(`the server exited (${code}) before it was ready`)));
  });
  const ask = (message, key) =>
    new Promise((resolve) => {
      const listener = (reply) => {
        if (reply && key in reply) {
          child.off('message', listener);
          resolve(reply[key]);
        }
      };
      child.on('message', listener);
      child.send(message);
    });
  return {
    ...ready,
    pid: child.pid,
    ask,
    memory: () => ask('memory', 'memory'),
    stop: async () => {
      await ask('stop', 'stopped');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    },
  };
}

/** Runs the benchmark's `main`; a BenchError is printed as `bench: <message>`, and either exits 1. */
export function runMain(main) {
  main().catch((err) => {
    console.error(err instanceof BenchError ? `bench: ${err.message}` : err);
    process.exit(1);
  });
}
