#!/usr/bin/env node
// This checkout's identity service against another checkout's, both alone in their own processes on
// the memory store: `GET /account/me` with wrk -c50 in `--cycles` interleaved 1 s slices (the other
// process stopped meanwhile), the order swapped every cycle. Prints the median of the cycles'
// throughput ratios (this / other) and of their CPU-per-request ratios (/proc), with interquartile
// ranges. For a change to the service path whose gain is smaller than the machine's drift between
// two runs. Both checkouts must be built; the other one's bench/gateway/wrk.mjs starts its service.
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm run build)
//   node bench/gateway/identity-ab.mjs --other=/tmp/before [--cycles=40]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchError, loadavg, machine, option, processCpuSeconds, quartiles, runMain } from '../lib/cli.mjs';
import { requireTools, startIdentityAlone, withStopped, wrk } from './wrk.mjs';

const OTHER = option('other', '');
const CYCLES = Number(option('cycles', '40'));

runMain(async () => {
  if (!OTHER) throw new BenchError('--other=<a built checkout> is required');
  requireTools();
  const other = await import(pathToFileURL(resolve(OTHER, 'bench/gateway/wrk.mjs')).href);
  const before = await other.startIdentityAlone();
  const after = await startIdentityAlone();
  try {
    const run = (which, idle, seconds) =>
      withStopped([idle.pid], () => {
        const cpu = processCpuSeconds(which.pid);
        const r = wrk({ url: which.me, token: which.token, seconds, connections: 50, headers: [] });
        return { rps: r.rps, us: ((processCpuSeconds(which.pid) - cpu) / r.total) * 1e6 };
      });
    run(before, after, 2); // warm-up
    run(after, before, 2);
    const throughput = [];
    const cpu = [];
    for (let c = 0; c < CYCLES; c++) {
      const [a, b] =
        c % 2
          ? [run(after, before, 1), run(before, after, 1)]
          : [run(before, after, 1), run(after, before, 1)].reverse();
      throughput.push(a.rps / b.rps);
      cpu.push(a.us / b.us);
    }
    const pct = (x) => `${(x * 100).toFixed(1)} %`;
    const described = (xs) => {
      const q = quartiles(xs);
      return `${pct(q.median)} (interquartile ${pct(q.q1)}–${pct(q.q3)})`;
    };
    console.log(
      `GET /account/me, identity alone, this checkout against ${OTHER}, ${CYCLES} interleaved 1 s cycles, ` +
        `${machine()}, load ${loadavg()}`,
    );
    console.log(`  throughput, this / other: ${described(throughput)}`);
    console.log(`  CPU per request, this / other: ${described(cpu)}`);
  } finally {
    await Promise.all([before.stop(), after.stop()]);
  }
});
