// What cpu-per-request.mjs and profile-paths.mjs share: the single process (single-process.mjs, what
// `npm start` runs) on the memory store and bus with the per-IP limit off, started as a child with
// `execArgv`, and a user's token for `GET /account/me`.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { launchFlags } from '@murmur/core';
import { freePort } from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/**
 * Starts the single process (with its heap floor unless `heapFloor` is false; run by `launcher`, a
 * command line that ends where node's begins, if given; on the memory store, or on the embedded store
 * in `dataDir` if given, or in a fresh directory with `fileStore`, as `npm start` runs by default);
 * resolves once it listens, with its child process, the milliseconds from spawn to listening
 * (`readyMs`), its gateway's `base` URL, the URLs of `GET /account/me` at its identity port (`direct`)
 * and through its gateway (`gateway`), a Bearer token of a user `bench` (the first user of a fresh
 * store: id 1), and `stop()`. Its logs (at `logLevel`) go to /dev/null.
 */
export async function startSingleProcess({
  execArgv = [],
  heapFloor = true,
  launcher = [],
  dataDir: givenDataDir = '',
  fileStore = false,
  logLevel = 'warn',
} = {}) {
  // A given directory is kept, and the process runs on the embedded store in it as `npm start` does.
  const dataDir = givenDataDir || mkdtempSync(join(tmpdir(), 'murmur-bench-single-'));
  const spawnedAt = performance.now();
  const [port, internalPort] = [await freePort(), await freePort()];
  const adminToken = randomUUID() + randomUUID();
  // Started as `npm start` starts it: with the single process's heap floor (libs/core/src/heap.ts).
  const flags = [...(heapFloor ? launchFlags('single') : []), ...execArgv];
  const [command, ...args] = [...launcher, process.execPath, ...flags, join(here, 'single-process.mjs')];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GATEWAY_INTERNAL_PORT: String(internalPort),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      STORE_URL: givenDataDir || fileStore ? `file:${dataDir}` : 'memory:',
      BUS_URL: 'memory:',
      MURMUR_ADMIN_TOKEN: adminToken,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: logLevel,
      // The ready line comes on a pipe of its own (fd 3): the log lines on stdout go to /dev/null, as
      // identity alone's do (wrk.mjs), and never fill a pipe this process does not read while wrk runs.
      BENCH_READY_FD: '3',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ready = await new Promise((resolve, reject) => {
      let buffered = '';
      child.stdio[3].on('data', (chunk) => {
        buffered += chunk;
        const line = buffered.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve({ ...JSON.parse(line), readyMs: performance.now() - spawnedAt });
      });
      child.once('exit', (code) => reject(new Error(`the single process exited (${code})`)));
    });
    const created = await fetch(`${ready.identity}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', email: 'bench@example.com', name: 'Bench' }),
    });
    const body = await created.json();
    const token = JSON.stringify(body).match(/"(?:token|access_token)":"([^"]{20,})"/)?.[1];
    if (!token) throw new Error(`no token from POST /admin/users: ${JSON.stringify(body).slice(0, 300)}`);
    return {
      child,
      token,
      readyMs: ready.readyMs,
      base: `http://127.0.0.1:${port}`,
      urls: { direct: `${ready.identity}/account/me`, gateway: `http://127.0.0.1:${port}/account/me` },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
