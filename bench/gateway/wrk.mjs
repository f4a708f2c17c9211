// What the wrk benchmarks share (wrk-single.mjs, wrk-distributed.mjs): running wrk — optionally pinned
// to CPUs with taskset — and starting the identity service and the gateway alone in processes of their
// own (memory store and bus), each optionally pinned too. wrk (C, one thread) needs far less CPU per
// request than autocannon, so more of a 2-core machine is left to what is measured. Needs `wrk` on the
// PATH (Debian: `apt-get install wrk`) and, to pin, `taskset` (util-linux).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchFlags } from '@murmur/core';
import { BenchError, freePort } from '../lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const execFileAsync = promisify(execFile);

/** Moves process `pid` and all its threads onto `cpuList` (a taskset list such as "0" or "0-1"). */
export function pin(cpuList, pid) {
  execFileSync('taskset', ['-apc', cpuList, String(pid)], { stdio: 'ignore' });
}

/** Throws a BenchError naming the package when wrk (or, with `pinning`, taskset) is missing. */
export function requireTools({ pinning = false } = {}) {
  const tools = [['wrk', 'wrk']];
  if (pinning) tools.push(['taskset', 'util-linux']);
  for (const [tool, pkg] of tools) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch (err) {
      // wrk --version exits 1 after printing its version; only a missing binary is an error.
      if (err.code === 'ENOENT')
        throw new BenchError(`${tool} is not installed (Debian: apt-get install ${pkg})`);
    }
  }
}

/**
 * Runs `measure()` with the processes `pids` stopped (SIGSTOP), then continues them: a process left
 * idle beside the one measured still collects garbage and runs its timers for seconds after its own
 * run, and on 2 cores that moved identical processes' figures by up to 6 % depending on the order
 * they were measured in.
 */
export function withStopped(pids, measure) {
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  try {
    return measure();
  } finally {
    for (const pid of pids) process.kill(pid, 'SIGCONT');
  }
}

/** `command args` run on `cpus` (a taskset list such as "0" or "0,1"), or anywhere when not given. */
function pinned(cpus, command, args) {
  return cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args];
}

const UNIT_MS = { us: 0.001, ms: 1, s: 1000 };

function wrkArgs({ url, token, seconds, connections, headers = [], cpus = '' }) {
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    // wrk's default of 2 s counts a slower answer as a socket error and leaves it out of the latency
    // figures. The reader's 145 KB pages at 50 connections have such a tail on their own (2026-11-25: p99
    // 1.65 s direct under wrk; a 15-line Node server spending 1.7 ms of CPU on each 145,000-byte answer
    // showed the same, so it is how a saturated Node server and wrk share large answers).
    '--timeout',
    '10s',
    '--latency',
    '-H',
    `Authorization: Bearer ${token}`,
  ];
  for (const h of headers) args.push('-H', h);
  return pinned(cpus, 'wrk', [...args, url]);
}

/** What wrk printed: requests per second, p50/p99 in ms, the request count and the failures. */
function parseWrk(out) {
  const latency = (p) => {
    const m = out.match(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm'));
    if (!m) throw new BenchError(`no ${p}% latency in wrk's output:\n${out}`);
    return Number(m[1]) * UNIT_MS[m[2]];
  };
  const socket = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    rps: Math.round(Number(out.match(/Requests\/sec:\s+([\d.]+)/)[1])),
    p50Ms: latency(50),
    p99Ms: latency(99),
    total: Number(out.match(/(\d+) requests in/)?.[1] ?? 0),
    non2xx: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

/**
 * `wrk -t1 -c<connections> -d<seconds>s --latency` on `url` with a Bearer `token` and extra `headers`
 * ("Name: value"); returns requests per second and the p50/p99 latency in ms. Any non-2xx answer is an error.
 */
export function wrk(options) {
  const [command, argv] = wrkArgs(options);
  const out = execFileSync(command, argv).toString();
  if (/Non-2xx/.test(out)) throw new BenchError(`${options.url} answered errors:\n${out}`);
  return parseWrk(out);
}

/** The same without blocking this process (its children's output keeps flowing); failures are counted, not thrown. */
export async function wrkAsync(options) {
  const [command, argv] = wrkArgs(options);
  const { stdout } = await execFileAsync(command, argv);
  return parseWrk(stdout);
}

/**
 * Starts `node <nodeFlags> <entry>` (pinned to `cpus` if given; run by `launcher`, a command line that
 * ends where node's begins, such as valgrind's, if given) and resolves once `healthUrl` answers 200,
 * within `startMs`, with its `stop()` (`stop.pid` is the process's id).
 */
async function startNode(
  name,
  entry,
  env,
  healthUrl,
  cpus,
  nodeFlags = [],
  { launcher = [], startMs = 30_000 } = {},
) {
  const [first, ...rest] = [...launcher, process.execPath, ...nodeFlags, join(root, entry)];
  const [command, argv] = pinned(cpus, first, rest);
  const child = spawn(command, argv, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return untilHealthy(name, child, healthUrl, startMs);
}

/**
 * Resolves with `stop()` (`stop.pid`: the child's id; it sends `signal`) once `healthUrl` answers 200,
 * within `startMs`; throws, with the child stopped, if it exits first or takes longer.
 */
async function untilHealthy(name, child, healthUrl, startMs, signal = 'SIGTERM') {
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null) throw new BenchError(`the ${name} exited at start`);
    try {
      if ((await fetch(healthUrl)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new BenchError(`the ${name} did not start in ${startMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  stop.pid = child.pid;
  return stop;
}

/**
 * The identity service alone in its own process, with a user's token: `url` is its base URL, `me` the
 * URL of `GET /account/me`. `publicUrl` is what it believes its public address is (the gateway's, when
 * one is put in front). With `fileStore` it runs on the embedded store in its own directory, as it does
 * by default when deployed, instead of in memory.
 */
export async function startIdentityAlone({
  cpus = '',
  publicUrl = '',
  nodeFlags = [],
  launcher = [],
  startMs,
  logLevel = 'warn',
  fileStore = false,
} = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-identity-'));
  const port = await freePort();
  const adminToken = randomUUID() + randomUUID();
  const url = `http://127.0.0.1:${port}`;
  const stopNode = await startNode(
    'identity service',
    'services/identity/dist/main.js',
    {
      // The embedded store in its directory, as the service runs by default, or in memory.
      STORE_URL: fileStore ? `file:${dataDir}` : 'memory:',
      BUS_URL: 'memory:',
      DATA_DIR: dataDir,
      MURMUR_ADMIN_TOKEN: adminToken,
      IDENTITY_PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl || url,
      LOG_LEVEL: logLevel,
    },
    `${url}/healthz`,
    cpus,
    nodeFlags,
    { launcher, startMs },
  );
  const stop = async () => {
    await stopNode();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const created = await fetch(`${url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', email: 'bench@example.com', name: 'Bench' }),
  });
  const token = JSON.stringify(await created.json()).match(/"(?:token|access_token)":"([^"]{20,})"/)?.[1];
  if (!token) {
    await stop();
    throw new BenchError('no token from POST /admin/users');
  }
  return { url, me: `${url}/account/me`, token, stop, pid: stopNode.pid };
}

/**
 * The gateway alone in its own process at `port`, proxying identity over HTTP (the per-IP limit off),
 * started as it is deployed: with its launch flags (heap floor, young-generation cap) unless `heapFloor` is false.
 * `targets` adds other services' URLs (`{ READER_URL: … }`).
 */
export async function startGatewayAlone({
  port,
  identityUrl,
  cpus = '',
  heapFloor = true,
  targets = {},
  logLevel = 'warn',
}) {
  const internalPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const stop = await startNode(
    'gateway',
    'gateway/dist/main.js',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      IDENTITY_URL: identityUrl,
      ...targets,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      GATEWAY_INTERNAL_PORT: String(internalPort),
      LOG_LEVEL: logLevel,
    },
    `http://127.0.0.1:${internalPort}/healthz`,
    cpus,
    heapFloor ? launchFlags('gateway') : [],
  );
  return { url, me: `${url}/account/me`, stop, pid: stop.pid };
}

/**
 * nginx (Debian package `nginx-light`) as a reverse proxy to `upstreamUrl` at `port`: one worker, as
 * the gateway is one process, keep-alive connections to the upstream, no access log, and the forwarded
 * headers the gateway sends (client address, protocol, a request id). Pinned to `cpus` if given (its
 * worker inherits it). A proxy outside Node in the gateway's place: what a second hop costs on the
 * machine when it is not Node's HTTP server and client. Resolves once `/healthz` answers through it.
 */
export async function startNginx({ port, upstreamUrl, cpus = '' }) {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new BenchError('nginx is not installed (Debian package nginx-light)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'murmur-bench-nginx-'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  upstream service { server ${new URL(upstreamUrl).host}; keepalive 128; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto http;
      proxy_set_header X-Request-Id $request_id;
    }
  }
}
`,
  );
  const [command, argv] = pinned(cpus, 'nginx', ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf]);
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let stopNginx;
  try {
    // SIGQUIT: nginx's graceful stop.
    stopNginx = await untilHealthy('nginx', child, `${url}/healthz`, 10_000, 'SIGQUIT');
  } catch (err) {
    removeDir();
    throw err;
  }
  const stop = async () => {
    await stopNginx();
    removeDir();
  };
  return { url, me: `${url}/account/me`, pid: child.pid, stop };
}

/**
 * `node <file>` with `env`, resolved once it prints its first line (a bench helper saying it listens),
 * with its child process and `stop()`.
 */
export async function startHelper(file, env) {
  const child = spawn(process.execPath, [file], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new BenchError(`${file} exited (${code}) before listening`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  return { pid: child.pid, stop };
}
