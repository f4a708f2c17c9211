#!/usr/bin/env node
// CPU time per request of the single process (what `npm start` runs), read from /proc after a fixed
// number of requests: GET /account/me at its own identity port and through its gateway. Unlike
// throughput, CPU per request hardly moves with the machine's other load, so it compares the two
// paths on a busy machine too. Linux only (reads /proc/<pid>/stat). After a build:
//   node bench/gateway/cpu-per-request.mjs [--requests=20000] [--connections=20] [--rounds=3]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { loadavg, option } from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const autocannon = createRequire(join(root, 'bench/package.json'))('autocannon');
const REQUESTS = Number(option('requests', '20000'));
const CONNECTIONS = Number(option('connections', '20'));
const ROUNDS = Number(option('rounds', '3'));
const TICKS = 100; // USER_HZ on Linux

function cpuSeconds(pid) {
  // Fields after the command name (which may hold spaces): utime is the 14th field, stime the 15th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function run(url, token, amount) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

const single = await startSingleProcess();
const { child, token } = single;
try {
  const paths = [
    ['its identity port', single.urls.direct],
    ['through its gateway', single.urls.gateway],
  ];
  for (const [, url] of paths) await run(url, token, 3000); // warm-up
  const perPath = new Map(paths.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of paths) {
      const before = cpuSeconds(child.pid);
      const result = await run(url, token, REQUESTS);
      const cpu = cpuSeconds(child.pid) - before;
      perPath.get(name).push({ microseconds: (cpu / REQUESTS) * 1e6, rps: result.requests.average });
    }
  }
  const load = loadavg();
  console.log(
    `GET /account/me, ${REQUESTS} requests × ${ROUNDS} rounds, ${CONNECTIONS} connections, load ${load}`,
  );
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const us = {};
  for (const [name, samples] of perPath) {
    us[name] = median(samples.map((s) => s.microseconds));
    console.log(
      `  ${name.padEnd(22)} CPU per request ${samples.map((s) => s.microseconds.toFixed(0)).join(' / ')} µs ` +
        `(median ${us[name].toFixed(0)}), req/s ${samples.map((s) => s.rps.toFixed(0)).join(' / ')}`,
    );
  }
  const ratio = us['its identity port'] / us['through its gateway'];
  console.log(
    `  the gateway path costs ${(1 / ratio).toFixed(2)}× the direct path's CPU: a CPU-bound ceiling of ${(ratio * 100).toFixed(0)} % of direct throughput`,
  );
} finally {
  await single.stop();
}
