#!/usr/bin/env node
// The single-process target measured the way issue 16 first measured it: `wrk -t1 -c50 -d10s` on
// `GET /account/me`, against the identity service running alone and against the single process (what
// `npm start` runs) at its own identity port and through its gateway, `--rounds` times in turn so the
// ratios share the machine's load. wrk (C, one thread) needs far less CPU per request than autocannon,
// so on 2 cores more of the machine is left to the server (run.mjs's ratios are autocannon's). Needs
// `wrk` on the PATH (Debian: `apt-get install wrk`). After a build:
//   node bench/gateway/wrk-single.mjs [--rounds=2] [--duration=10] [--connections=50]
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError, freePort, loadavg, option, runMain } from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROUNDS = Number(option('rounds', '2'));
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '50'));
// Issue 16's target.
const TARGET = 0.9;
/** Headers a reverse proxy on this machine adds (it connects from loopback, which TRUST_PROXY trusts). */
const BEHIND_PROXY = ['X-Forwarded-For: 203.0.113.7', 'X-Forwarded-Proto: https'];

function wrk(url, token, seconds, headers = []) {
  const out = execFileSync('wrk', [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '-H',
    `Authorization: Bearer ${token}`,
    ...headers.flatMap((h) => ['-H', h]),
    url,
  ]).toString();
  if (/Non-2xx/.test(out)) throw new BenchError(`${url} answered errors:\n${out}`);
  return Math.round(Number(out.match(/Requests\/sec:\s+([\d.]+)/)[1]));
}

/** The identity service alone in its own process (memory store and bus), with a user's token. */
async function startIdentityAlone() {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-identity-'));
  const port = await freePort();
  const adminToken = randomUUID() + randomUUID();
  const child = spawn(process.execPath, [join(root, 'services/identity/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      STORE_URL: 'memory:',
      BUS_URL: 'memory:',
      DATA_DIR: dataDir,
      MURMUR_ADMIN_TOKEN: adminToken,
      IDENTITY_PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new BenchError('the identity service exited at start');
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new BenchError('the identity service did not start in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = await fetch(`${url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', email: 'bench@example.com', name: 'Bench' }),
  });
  const token = JSON.stringify(await created.json()).match(/"(?:token|access_token)":"([^"]{20,})"/)?.[1];
  if (!token) throw new BenchError('no token from POST /admin/users');
  return { url: `${url}/account/me`, token, stop };
}

runMain(async () => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    // wrk --version exits 1 after printing its version; only a missing binary is an error.
    if (err.code === 'ENOENT') throw new BenchError('wrk is not installed (Debian: apt-get install wrk)');
  }
  const alone = await startIdentityAlone();
  const single = await startSingleProcess();
  try {
    const targets = {
      'identity alone': [alone.url, alone.token],
      'single process, its identity port': [single.urls.direct, single.token],
      'single process, through its gateway': [single.urls.gateway, single.token],
      // What a deployment behind Caddy or nginx on the same machine sends (a trusted loopback peer).
      'the same, behind a reverse proxy': [single.urls.gateway, single.token, BEHIND_PROXY],
    };
    for (const [url, token, headers] of Object.values(targets)) wrk(url, token, 3, headers); // warm-up
    console.log(
      `wrk -t1 -c${CONNECTIONS} -d${DURATION}s GET /account/me, ${ROUNDS} rounds, load ${loadavg()}`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const rps = {};
      for (const [name, [url, token, headers]] of Object.entries(targets))
        rps[name] = wrk(url, token, DURATION, headers);
      const gateway = rps['single process, through its gateway'];
      const own = rps['single process, its identity port'];
      const ratio = gateway / rps['identity alone'];
      console.log(
        `  round ${round}: ${Object.entries(rps)
          .map(([n, v]) => `${n} ${v} req/s`)
          .join(', ')}`,
      );
      console.log(
        `    through the gateway: ${(ratio * 100).toFixed(1)} % of identity alone (target ≥ ${TARGET * 100} %: ` +
          `${ratio >= TARGET ? 'met' : 'NOT met'}), ${((gateway / own) * 100).toFixed(1)} % of its own identity port`,
      );
      const proxied = rps['the same, behind a reverse proxy'];
      console.log(
        `    behind a reverse proxy: ${((proxied / rps['identity alone']) * 100).toFixed(1)} % of identity alone, ` +
          `${((proxied / own) * 100).toFixed(1)} % of its own identity port`,
      );
    }
    console.log(`load average after: ${loadavg()}`);
  } finally {
    await Promise.all([alone.stop(), single.stop()]);
  }
});
