#!/usr/bin/env node
// XML-RPC memory under refused uploads (bench/README.md "XML-RPC memory"): the whole of Murmur in one
// process (`node cli/dist/main.js start`, embedded store), then N concurrent 35 MB
// `metaWeblog.newMediaObject` calls with a wrong password, sampling the process's RSS every 50 ms. The
// login is checked while the body streams and large bodies take one of a few slots, so memory must stay
// near the idle figure however many such calls arrive (docs/security.md "Request limits").
//   node bench/xmlrpc-memory/run.mjs [--concurrency=6,12] [--mb=35] [--json]
// Run after a build, from the repository root (or `npm run bench -- xmlrpc-memory`).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { processRssMiB } from '../lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const option = (name, fallback) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
};
const LEVELS = option('concurrency', '6,12').split(',').map(Number);
const MB = Number(option('mb', '35'));
const log = (...args) => console.error(...args);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** A methodCall whose base64 `bits` member is `mb` megabytes, built once and sent as a Buffer. */
function mediaCall(username, password, mb) {
  const head = Buffer.from(
    '<?xml version="1.0"?><methodCall><methodName>metaWeblog.newMediaObject</methodName><params>' +
      `<param><value><string>0</string></value></param><param><value><string>${username}</string></value></param>` +
      `<param><value><string>${password}</string></value></param><param><value><struct>` +
      '<member><name>name</name><value><string>big.png</string></value></member>' +
      '<member><name>type</name><value><string>image/png</string></value></member>' +
      '<member><name>bits</name><value><base64>',
  );
  const tail = Buffer.from('</base64></value></member></struct></value></param></params></methodCall>');
  const bits = Buffer.alloc(mb * 1024 * 1024 - head.length - tail.length, 'A');
  return Buffer.concat([head, bits, tail]);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-bench-xmlrpc-'));
  const port = await freePort();
  const adminToken = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, [join(root, 'cli/dist/main.js'), 'start'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      MURMUR_ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 300) throw new Error('Murmur did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const created = await fetch(`${base}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', email: 'ada@example.test' }),
    });
    if (created.status !== 201) throw new Error(`creating a user: ${created.status}`);
    const body = mediaCall('ada', 'not-the-password', MB);
    const results = [];
    await new Promise((r) => setTimeout(r, 1000));
    for (const n of LEVELS) {
      globalThis.gc?.();
      const idle = processRssMiB(child.pid);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, processRssMiB(child.pid))), 50);
      const started = performance.now();
      const statuses = await Promise.all(
        Array.from({ length: n }, () =>
          fetch(`${base}/xmlrpc`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body })
            .then(async (res) => `${res.status} ${(await res.text()).includes('<fault>') ? 'fault' : 'ok'}`)
            .catch((err) => `error ${err.cause?.code ?? err.message}`),
        ),
      );
      clearInterval(sampler);
      peak = Math.max(peak, processRssMiB(child.pid));
      const tally = {};
      for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
      const result = {
        concurrency: n,
        bodyMB: MB,
        idleRssMiB: Math.round(idle),
        peakRssMiB: Math.round(peak),
        addedMiB: Math.round(peak - idle),
        seconds: Math.round((performance.now() - started) / 100) / 10,
        answers: tally,
      };
      results.push(result);
      log(
        `${n} × ${MB} MB wrong-password uploads: RSS ${result.idleRssMiB} → peak ${result.peakRssMiB} MiB ` +
          `(+${result.addedMiB}) in ${result.seconds} s; answers ${JSON.stringify(tally)}`,
      );
      await new Promise((r) => setTimeout(r, 2000));
    }
    if (process.argv.includes('--json')) console.log(JSON.stringify(results));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  log(`bench failed: ${err.message}`);
  process.exit(1);
});
