#!/usr/bin/env node
// CPU time per request, read from /proc, of GET /account/me served three ways: by the identity service
// alone in its own process, at the single process's own identity port, and through the single
// process's gateway (what `npm start` serves). Throughput on these shared VMs moves by ±10 % from one
// second to the next (bench/gateway/wrk-single.mjs); CPU per request moves far less, and while the
// server is CPU-bound its inverse is the throughput it can reach, so the ratios printed here are the
// throughput ratios wrk-single.mjs measures, without most of the machine's noise. wrk drives each path
// for `--seconds` at 50 connections, the paths interleaved (first, …, last, then last, …, first), the
// process not measured stopped (SIGSTOP). Linux only. After a build:
//   node bench/gateway/cpu-per-request.mjs [--rounds=6] [--seconds=2]
import { cycleOrder, loadavg, option, processCpuSeconds, quartiles, runMain } from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';
import { requireTools, startIdentityAlone, withStopped, wrk } from './wrk.mjs';

const ROUNDS = Number(option('rounds', '6'));
const SECONDS = Number(option('seconds', '2'));
const CONNECTIONS = 50;

const ALONE = 'identity alone';
const OWN = 'single process, its identity port';
const GATEWAY = 'single process, through its gateway';

runMain(async () => {
  requireTools();
  const alone = await startIdentityAlone();
  const single = await startSingleProcess();
  try {
    const singlePid = single.child.pid;
    // [url, token, the process serving it, the process stopped meanwhile]
    const paths = {
      [ALONE]: [alone.me, alone.token, alone.pid, singlePid],
      [OWN]: [single.urls.direct, single.token, singlePid, alone.pid],
      [GATEWAY]: [single.urls.gateway, single.token, singlePid, alone.pid],
    };
    const names = Object.keys(paths);
    const measure = ([url, token, pid, idle], seconds) =>
      withStopped([idle], () => {
        const before = processCpuSeconds(pid);
        const { total, rps } = wrk({ url, token, seconds, connections: CONNECTIONS, headers: [] });
        return { us: ((processCpuSeconds(pid) - before) / total) * 1e6, rps };
      });
    for (const name of names) measure(paths[name], 2); // warm-up
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const name of cycleOrder(round, names)) samples[name].push(measure(paths[name], SECONDS));

    console.log(
      `GET /account/me, wrk -t1 -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s a path, load ${loadavg()}; ` +
        'CPU per request of the process serving it (/proc, 10 ms ticks)',
    );
    const median = {};
    for (const name of names) {
      const us = samples[name].map((s) => s.us);
      median[name] = quartiles(us).median;
      console.log(
        `  ${name.padEnd(36)} ${us.map((x) => x.toFixed(1)).join(' / ')} µs (median ${median[name].toFixed(1)}), ` +
          `req/s ${samples[name].map((s) => s.rps.toFixed(0)).join(' / ')}`,
      );
    }
    const ceiling = (a, b) => `${((median[b] / median[a]) * 100).toFixed(1)} %`;
    console.log(
      `  CPU-bound ceiling of the gateway path: ${ceiling(GATEWAY, ALONE)} of identity alone, ` +
        `${ceiling(GATEWAY, OWN)} of its own identity port; that port ${ceiling(OWN, ALONE)} of identity alone`,
    );
  } finally {
    await Promise.all([alone.stop(), single.stop()]);
  }
});
