#!/usr/bin/env node
// The single-process target measured the way issue 16 first measured it: `wrk -t1 -c50 -d10s` on
// `GET /account/me`, against the identity service running alone and against the single process (what
// `npm start` runs) at its own identity port, through its gateway, and through its gateway with the
// headers a reverse proxy on the same machine adds, `--rounds` times in turn so the ratios share the
// machine's load. wrk needs far less CPU per request than autocannon, so on 2 cores more of the machine
// is left to the server (run.mjs's ratios are autocannon's). Needs `wrk` (wrk.mjs). After a build:
//   node bench/gateway/wrk-single.mjs [--rounds=2] [--duration=10] [--connections=50] [--no-heap-floor]
//        [--keep-idle-running]
// While one process is measured the other is stopped (SIGSTOP; wrk.mjs withStopped): left running, it
// collected garbage and ran its timers beside the one measured, which moved the figures of two
// identical processes by up to 6 % depending on the order they ran in. --keep-idle-running leaves it.
// The single process starts as `npm start` starts it, with its heap floor (libs/platform/src/runtime/heap.ts);
// --no-heap-floor starts it without. Identity alone starts as it is deployed, without one.
import { flag, loadavg, option, runMain } from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';
import { requireTools, startIdentityAlone, withStopped, wrk } from './wrk.mjs';

const ROUNDS = Number(option('rounds', '2'));
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '50'));
// Issue 16's target.
const TARGET = 0.9;
/** Headers a reverse proxy on this machine adds (it connects from loopback, which TRUST_PROXY trusts). */
const BEHIND_PROXY = ['X-Forwarded-For: 203.0.113.7', 'X-Forwarded-Proto: https'];

runMain(async () => {
  requireTools();
  const alone = await startIdentityAlone();
  const heapFloor = !flag('no-heap-floor');
  const stopIdle = !flag('keep-idle-running');
  const single = await startSingleProcess({ heapFloor });
  try {
    // [url, token, extra headers, the process left idle meanwhile]
    const targets = {
      'identity alone': [alone.me, alone.token, [], single.child.pid],
      'single process, its identity port': [single.urls.direct, single.token, [], alone.pid],
      'single process, through its gateway': [single.urls.gateway, single.token, [], alone.pid],
      // What a deployment behind Caddy or nginx on the same machine sends (a trusted loopback peer).
      'the same, behind a reverse proxy': [single.urls.gateway, single.token, BEHIND_PROXY, alone.pid],
    };
    const run = ([url, token, headers, idle], seconds) =>
      withStopped(stopIdle ? [idle] : [], () =>
        wrk({ url, token, seconds, connections: CONNECTIONS, headers }),
      ).rps;
    for (const target of Object.values(targets)) run(target, 3); // warm-up
    console.log(
      `wrk -t1 -c${CONNECTIONS} -d${DURATION}s GET /account/me, ${ROUNDS} rounds, load ${loadavg()}, ` +
        `single process's heap floor ${heapFloor ? 'on' : 'off'}, ` +
        `the process not measured ${stopIdle ? 'stopped (SIGSTOP)' : 'left running'}`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const rps = {};
      for (const [name, target] of Object.entries(targets)) rps[name] = run(target, DURATION);
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
