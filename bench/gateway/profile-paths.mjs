#!/usr/bin/env node
// Where the single process's gateway path spends its time, function by function: the single process
// (what `npm start` runs) is started twice under `node --cpu-prof`, once driven at its own identity
// port and once through its gateway, with the same number of `GET /account/me` requests; the two
// profiles' self times are then printed per request, side by side, largest difference first.
// (docs/adr/0016-in-process-dispatch-and-gateway-cost.md used it.) `--paths=alone,direct` compares the
// identity service alone in its own process (`alone`) with the single process's identity port instead:
// what the service's own code costs more with the seven other services beside it. After a build:
//   node bench/gateway/profile-paths.mjs [--paths=direct,gateway] [--requests=80000] [--connections=20]
//     [--top=40] [--keep=<dir>]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg, option } from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';
import { startIdentityAlone } from './wrk.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const autocannon = createRequire(join(root, 'bench/package.json'))('autocannon');
const REQUESTS = Number(option('requests', '80000'));
const CONNECTIONS = Number(option('connections', '20'));
const TOP = Number(option('top', '40'));
const KEEP = option('keep', '');
const PATHS = option('paths', 'direct,gateway').split(',');
const KNOWN = ['alone', 'direct', 'gateway'];
if (PATHS.length !== 2 || !PATHS.every((p) => KNOWN.includes(p)))
  throw new Error(`--paths takes two of ${KNOWN.join(', ')}, comma-separated`);

/** Runs the single process under the profiler, drives `which` path, returns the profile's path. */
async function profile(which, dir) {
  const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  const started =
    which === 'alone'
      ? await startIdentityAlone({ nodeFlags: flags })
      : await startSingleProcess({ execArgv: flags });
  try {
    const url = which === 'alone' ? started.me : started.urls[which];
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      amount: REQUESTS,
      headers: { authorization: `Bearer ${started.token}` },
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  } finally {
    await started.stop();
  }
  return join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.cpuprofile')),
  );
}

/** Self time (µs) per function — name, file (package@version or repository path) and line. */
function selfTimes(file) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < p.samples.length; i++) {
    const { functionName, url, lineNumber } = nodes.get(p.samples[i]).callFrame;
    const where = url
      .replace(/.*node_modules\/\.pnpm\/([^/]+)\/.*\/([^/]+)$/, '$1:$2')
      .replace(`file://${root}/`, '')
      .replace(`${root}/`, '');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
  }
  return self;
}

const dir = KEEP || mkdtempSync(join(tmpdir(), 'murmur-profiles-'));
try {
  const [first, second] = PATHS;
  const firstTimes = selfTimes(await profile(first, join(dir, first)));
  const secondTimes = selfTimes(await profile(second, join(dir, second)));
  const rows = [...new Set([...firstTimes.keys(), ...secondTimes.keys()])].map((key) => ({
    key,
    first: (firstTimes.get(key) ?? 0) / REQUESTS,
    second: (secondTimes.get(key) ?? 0) / REQUESTS,
  }));
  const busy = (m) =>
    [...m].filter(([k]) => !k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0) / REQUESTS;
  console.log(
    `GET /account/me × ${REQUESTS}, ${CONNECTIONS} connections, load ${loadavg()}; µs of CPU per request (profiled, start-up included)`,
  );
  console.log(`busy: ${first} ${busy(firstTimes).toFixed(1)}, ${second} ${busy(secondTimes).toFixed(1)}`);
  console.log(`${first.padStart(8)} ${second.padStart(8)} ${'diff'.padStart(7)}  function`);
  rows.sort((a, b) => Math.abs(b.second - b.first) - Math.abs(a.second - a.first));
  for (const r of rows.filter((x) => !x.key.startsWith('(idle)')).slice(0, TOP)) {
    const f = (n) => n.toFixed(2).padStart(8);
    console.log(`${f(r.first)} ${f(r.second)} ${(r.second - r.first).toFixed(2).padStart(7)}  ${r.key}`);
  }
} finally {
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
}
