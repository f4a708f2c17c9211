#!/usr/bin/env node
// Gateway overhead: the same authenticated request (GET /account/me) measured directly against the
// identity service and through the gateway, each in its own process, with autocannon running here.
// Run after a build, from the repository root: `npm run bench` or `node bench/gateway/run.mjs`.
// Options: --duration=<s> (10), --warmup=<s> (3), --connections=<n> (50), --log-level=<level> (warn),
//          --json (print the results as one JSON line at the end as well).
// Exits non-zero only when the benchmark could not run or saw errors; missing a target is reported.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TARGET_RATIO = 0.6;
const TARGET_ADDED_P99_MS = 5;

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}
const durationS = Number(option('duration', '10'));
const warmupS = Number(option('warmup', '3'));
const connections = Number(option('connections', '50'));
const logLevel = option('log-level', 'warn');
const printJson = process.argv.includes('--json');

class BenchError extends Error {}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const children = [];

/** Starts `node <entry>` with `env`; keeps its output so a failure can show why. */
function startProcess(name, entry, env) {
  const file = join(root, entry);
  if (!existsSync(file)) throw new BenchError(`${entry} is missing: build first (npm run build).`);
  const child = spawn(process.execPath, [file], {
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

async function stopAll() {
  await Promise.all(
    children.map(async (p) => {
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

function load(url, token, seconds) {
  return autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
}

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
  const identityPort = await freePort();
  const gatewayPort = await freePort();
  const internalPort = await freePort();
  const adminToken = randomBytes(32).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-'));
  const publicUrl = `http://127.0.0.1:${gatewayPort}`;
  const identityUrl = `http://127.0.0.1:${identityPort}`;

  try {
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

    const gateway = startProcess('gateway', 'gateway/dist/main.js', {
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      IDENTITY_URL: identityUrl,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      GATEWAY_INTERNAL_PORT: String(internalPort),
      LOG_LEVEL: logLevel,
    });
    // The aggregate /readyz is on the gateway's internal port only.
    await waitForOk(gateway, `http://127.0.0.1:${internalPort}/readyz`);

    const token = await createUserToken(identityUrl, adminToken);
    const direct = `${identityUrl}/account/me`;
    const viaGateway = `${publicUrl}/account/me`;
    await checkOnce(direct, token);
    await checkOnce(viaGateway, token);

    console.log(
      `gateway benchmark: GET /account/me, ${connections} connections, ${durationS} s each after ${warmupS} s warm-up; ` +
        `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, LOG_LEVEL=${logLevel}`,
    );
    await load(direct, token, warmupS);
    await load(viaGateway, token, warmupS);
    const d = summary(await load(direct, token, durationS));
    const g = summary(await load(viaGateway, token, durationS));

    const ratio = g.requestsPerSecond / d.requestsPerSecond;
    const addedP99 = g.p99Ms - d.p99Ms;
    const row = (name, s) =>
      `| ${name.padEnd(15)} | ${String(s.requestsPerSecond).padStart(8)} | ${String(s.p50Ms).padStart(7)} | ${String(s.p99Ms).padStart(7)} | ${String(s.non2xx + s.errors + s.timeouts).padStart(6)} |`;
    console.log('');
    console.log('| target          | req/s    | p50 ms  | p99 ms  | errors |');
    console.log('|-----------------|----------|---------|---------|--------|');
    console.log(row('identity direct', d));
    console.log(row('via gateway', g));
    console.log('');
    const ratioOk = ratio >= TARGET_RATIO;
    const p99Ok = addedP99 <= TARGET_ADDED_P99_MS;
    console.log(
      `throughput ratio: ${(ratio * 100).toFixed(1)} % of direct (target ≥ ${TARGET_RATIO * 100} %): ${ratioOk ? 'met' : 'NOT met'}`,
    );
    console.log(
      `added p99: ${addedP99.toFixed(2)} ms (target ≤ ${TARGET_ADDED_P99_MS} ms): ${p99Ok ? 'met' : 'NOT met'}`,
    );
    if (printJson)
      console.log(
        JSON.stringify({ connections, durationS, direct: d, gateway: g, ratio, addedP99Ms: addedP99 }),
      );

    const failures = [d, g].reduce((n, s) => n + s.non2xx + s.errors + s.timeouts, 0);
    if (failures > 0)
      throw new BenchError(
        `${failures} requests failed (non-2xx, errors or timeouts); the numbers above are not valid.`,
      );
  } finally {
    await stopAll();
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
