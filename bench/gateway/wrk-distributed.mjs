#!/usr/bin/env node
// The distributed gateway (its own process, proxying over HTTP) on `GET /account/me` with wrk, in two
// layouts, `--rounds` times in turn so the ratios share the machine's load:
// - shared: wrk, the gateway and the identity service all on both cores, as run.mjs does with
//   autocannon — on 2 cores the gateway's CPU is taken from the identity service it measures;
// - a core each: the identity service pinned to CPU 1, the gateway (and wrk) to CPU 0, so the service
//   keeps a core as it would on a machine of its own; the direct run pins wrk and the service the same way.
// Reports throughput through the gateway against direct and the p99 it adds (issue 16: ≥ 75 % and
// ≤ 3 ms at 50 connections): the throughput in interleaved 1 s slices (wrk-single.mjs says why); the p99
// saturated in --p99-cycles interleaved --p99-slice second runs a side, the added p99 being the median of
// the cycles' differences; and again at a fixed rate (--paced-rate, a share of direct's saturated rate;
// 0 skips it; at most --paced-max-rate requests/s) in --paced-slices interleaved 2 s slices, where it
// measures what the gateway adds to a request rather than the length of a queue. Needs wrk and taskset (wrk.mjs). After a build:
//   node bench/gateway/wrk-distributed.mjs [--rounds=2] [--cycles=20] [--slice=1] [--p99-cycles=9]
//        [--p99-slice=3] [--connections=50] [--paced-rate=0.25] [--paced-max-rate=1500]
//        [--paced-slices=10] [--log-level=warn] [--bare] [--nginx]
//
// --bare measures, in the same throughput cycles, a bare proxy beside the gateway: undici's
// Pool.dispatch from a plain node:http server, nothing else (pass-through-helpers.mjs, role `undici`),
// placed and pinned as the gateway is: the least a Node proxy costs on the machine. What is left
// between it and the gateway is the gateway's own work (routing, limits, headers, ids, metrics, logs).
// --nginx does the same with nginx (wrk.mjs startNginx; Debian package nginx-light): a second hop that
// is not Node's HTTP server and client. On an AMD EPYC VM where the gateway served 62–71 % of direct,
// the bare proxy served 58–83 % and nginx 90–101 % (2026-11-30; ADR 0016, revision "a slower VM, and the
// distributed lane against a bare proxy").
import { cpus } from 'node:os';
import { BenchError, freePort, loadavg, option, cycleOrder, quartiles, runMain } from '../lib/cli.mjs';
import { pacedCompare } from '../lib/paced.mjs';
import {
  pin,
  requireTools,
  startGatewayAlone,
  startHelper,
  startIdentityAlone,
  startNginx,
  wrk,
} from './wrk.mjs';

const ROUNDS = Number(option('rounds', '2'));
const CYCLES = Number(option('cycles', '20'));
const SLICE = Number(option('slice', '1'));
const P99_CYCLES = Number(option('p99-cycles', '9'));
// Odd, so that the median is one cycle's and not the lower of two (quartiles() takes nearest ranks).
const P99_SLICE = Number(option('p99-slice', '3'));
const CONNECTIONS = Number(option('connections', '50'));
// Both processes' LOG_LEVEL; their log lines go to /dev/null. `info` is what they are deployed with.
const LOG_LEVEL = option('log-level', 'warn');
/** The fixed rate of the p99 measurement, as a share of direct's saturated rate; 0 skips it. */
const PACED_SHARE = Number(option('paced-rate', '0.25'));
// The paced client is a Node process (bench/lib/paced.mjs), pinned with wrk to the gateway's core in the
// "a core each" layout. At a quarter of 12,000–13,000 req/s it took most of that core and its figures
// were its own (+7.1 and +18.1 ms added there, against +0.3 to +0.8 ms with shared cores), so the rate
// stops at about what a quarter was on the afternoon's slower machine (1,409–1,452 req/s).
const PACED_MAX_RATE = Number(option('paced-max-rate', '1500'));
const PACED_SLICES = Number(option('paced-slices', '10'));
const PACED_SLICE_S = 2;
// Issue 16's targets.
const TARGET_RATIO = 0.75;
const TARGET_ADDED_P99_MS = 3;
const BARE = process.argv.includes('--bare');
const NGINX = process.argv.includes('--nginx');
const HELPERS = new URL('./pass-through-helpers.mjs', import.meta.url).pathname;

/** Runs `fn` with this process (the paced load's client) on `cpuList`, as wrk is pinned; '' leaves it. */
async function pinnedTo(cpuList, fn) {
  if (!cpuList) return fn();
  pin(cpuList, process.pid);
  try {
    return await fn();
  } finally {
    pin(`0-${cpus().length - 1}`, process.pid);
  }
}

async function layout(name, { identityCpus, gatewayCpus, wrkCpus }) {
  const gatewayPort = await freePort();
  const identity = await startIdentityAlone({
    cpus: identityCpus,
    publicUrl: `http://127.0.0.1:${gatewayPort}`,
    logLevel: LOG_LEVEL,
  });
  let gateway;
  let bare;
  let nginx;
  try {
    gateway = await startGatewayAlone({
      port: gatewayPort,
      identityUrl: identity.url,
      cpus: gatewayCpus,
      logLevel: LOG_LEVEL,
    });
    if (BARE) {
      const port = await freePort();
      bare = await startHelper(HELPERS, { ROLE: 'undici', PORT: String(port), UPSTREAM_URL: identity.url });
      if (gatewayCpus) pin(gatewayCpus, bare.pid);
      bare.me = `http://127.0.0.1:${port}/account/me`;
    }
    if (NGINX)
      nginx = await startNginx({ port: await freePort(), upstreamUrl: identity.url, cpus: gatewayCpus });
    const urls = { direct: identity.me, through: gateway.me, bare: bare?.me, nginx: nginx?.me };
    const sides = ['direct', 'through', ...(BARE ? ['bare'] : []), ...(NGINX ? ['nginx'] : [])];
    const run = (url, seconds) =>
      wrk({ url, token: identity.token, seconds, connections: CONNECTIONS, cpus: wrkCpus });
    for (const side of sides) run(urls[side], 3); // warm-up
    const rows = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Interleaved slices, as wrk-single.mjs measures (it says why): direct and through the gateway in
      // turn, the order reversed every other cycle.
      const cycles = [];
      for (let c = 0; c < CYCLES; c++) {
        const cycle = {};
        for (const side of cycleOrder(c, sides)) cycle[side] = run(urls[side], SLICE);
        cycles.push(cycle);
      }
      const sum = (side) => cycles.reduce((total, c) => total + c[side].rps, 0);
      const ratio = quartiles(cycles.map((c) => c.through.rps / c.direct.rps)).median;
      // The saturated p99, paired the same way in longer slices. A 1 s run's p99 is too often a slow
      // spell of the VM's or the run's start (identity alone, 1 s runs in a row: 93.6, 8.3, 18.2, 72.3 ms;
      // 3 s runs: 6.5–9.4 ms), and one 10 s run a side (this script until 2026-11-28) compared two
      // stretches of different weather: the same code measured +1.1 and +6.7 ms in consecutive rounds.
      // A slow spell lands in one side of one cycle; the median of the cycles' differences ignores it.
      const p99s = [];
      for (let c = 0; c < P99_CYCLES; c++) {
        const cycle = {};
        for (const side of cycleOrder(c, ['direct', 'through']))
          cycle[side] = run(side === 'direct' ? identity.me : gateway.me, P99_SLICE).p99Ms;
        p99s.push(cycle);
      }
      const added = quartiles(p99s.map((c) => c.through - c.direct));
      const median = (side) => quartiles(p99s.map((c) => c[side])).median;
      rows.push({ ratio, added: added.median, directRps: sum('direct') / CYCLES });
      console.log(
        `  ${name}, round ${round}: direct ${Math.round(sum('direct') / CYCLES)} req/s, through the gateway ` +
          `${Math.round(sum('through') / CYCLES)} req/s (means of the cycles): ${(ratio * 100).toFixed(1)} % ` +
          `(median of the cycles; sums ${((sum('through') / sum('direct')) * 100).toFixed(1)} %; target ≥ ${TARGET_RATIO * 100} %: ` +
          `${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}); saturated p99, ${P99_CYCLES} cycles of ${P99_SLICE} s a side: ` +
          `${median('direct').toFixed(2)} ms direct, ${median('through').toFixed(2)} ms through the gateway (medians), ` +
          `added ${added.median.toFixed(2)} ms (median of the cycles' differences, interquartile ` +
          `${added.q1.toFixed(2)} to ${added.q3.toFixed(2)}; target ≤ ${TARGET_ADDED_P99_MS}: ` +
          `${added.median <= TARGET_ADDED_P99_MS ? 'met' : 'NOT met'})`,
      );
      const of = (a, b) => (quartiles(cycles.map((c) => c[a].rps / c[b].rps)).median * 100).toFixed(1);
      for (const [side, what, it] of [
        ['bare', 'a bare undici proxy', 'the bare proxy'],
        ['nginx', 'nginx', 'nginx'],
      ]) {
        if (!sides.includes(side)) continue;
        console.log(
          `    ${what} in the same cycles: ${Math.round(sum(side) / CYCLES)} req/s, ${of(side, 'direct')} % ` +
            `of direct; the gateway ${of('through', side)} % of ${it} (medians of the cycles)`,
        );
      }
    }
    // The p99 a request gets when the service has room: both sides at one fixed rate, evenly spaced
    // (bench/lib/paced.mjs), at most --connections connections, in interleaved slices. Saturated, the
    // p99 above is the length of a queue of fifty. At half
    // the saturated rate the VM's slow spells (half its speed for seconds at a time) saturate the service
    // again: p99s of 18–99 ms either side, reversed from one run to the next. A quarter leaves it room.
    if (PACED_SHARE > 0) {
      const directRates = rows.map((r) => r.directRps);
      const rate = Math.max(
        1,
        Math.min(
          PACED_MAX_RATE,
          Math.round((directRates.reduce((a, b) => a + b, 0) / rows.length) * PACED_SHARE),
        ),
      );
      const [d, g] = await pinnedTo(wrkCpus, () =>
        pacedCompare({
          urls: [identity.me, gateway.me],
          headers: { authorization: `Bearer ${identity.token}` },
          rate,
          connections: CONNECTIONS,
          slices: PACED_SLICES,
          sliceSeconds: PACED_SLICE_S,
        }),
      );
      for (const side of [d, g])
        if (side.non2xx + side.errors + side.timeouts > 0)
          throw new BenchError(`paced load: ${JSON.stringify(side)}`);
      const added = g.p99Ms - d.p99Ms;
      console.log(
        `  ${name}, at a fixed ${rate} req/s (${PACED_SHARE * 100} % of direct's saturated rate, at most ${PACED_MAX_RATE}), at most ${CONNECTIONS} ` +
          `connections, ${PACED_SLICES} interleaved slices of ${PACED_SLICE_S} s: p50 ${d.p50Ms} / p99 ${d.p99Ms} ms direct, ` +
          `p50 ${g.p50Ms} / p99 ${g.p99Ms} ms through the gateway, added p99 ${added.toFixed(2)} ms ` +
          `(target ≤ ${TARGET_ADDED_P99_MS}: ${added <= TARGET_ADDED_P99_MS ? 'met' : 'NOT met'})`,
      );
    }
    return rows;
  } finally {
    await nginx?.stop();
    await bare?.stop();
    await gateway?.stop();
    await identity.stop();
  }
}

runMain(async () => {
  requireTools({ pinning: true });
  if (cpus().length < 2) throw new BenchError('the pinned layout needs at least 2 CPUs');
  console.log(
    `wrk -t1 -c${CONNECTIONS} GET /account/me, ${ROUNDS} rounds of ${CYCLES} cycles of ${SLICE} s a side, ` +
      `${cpus().length} × ${cpus()[0]?.model}, load ${loadavg()}, LOG_LEVEL=${LOG_LEVEL}`,
  );
  await layout('shared', { identityCpus: '', gatewayCpus: '', wrkCpus: '' });
  await layout('a core each', { identityCpus: '1', gatewayCpus: '0', wrkCpus: '0' });
  console.log(`load average after: ${loadavg()}`);
});
