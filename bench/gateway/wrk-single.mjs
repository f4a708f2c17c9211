#!/usr/bin/env node
// The single-process target measured the way issue 16 first measured it: `wrk -t1 -c50` on
// `GET /account/me`, against the identity service running alone and against the single process (what
// `npm start` runs) at its own identity port, through its gateway, and through its gateway with the
// headers a reverse proxy on the same machine adds. wrk needs far less CPU per request than autocannon,
// so on 2 cores more of the machine is left to the server (run.mjs's ratios are autocannon's). Needs
// `wrk` (wrk.mjs). After a build:
//   node bench/gateway/wrk-single.mjs [--rounds=2] [--cycles=20] [--slice=1] [--connections=50]
//        [--no-heap-floor] [--keep-idle-running] [--targets=alone,own,gateway,proxied]
//        [--alone-flags=--flag,...] [--single-flags=--flag,...] [--variant-flags=--flag,...]
//        [--alone-variant-flags=--flag,...]
//        [--log-level=warn] [--processes=1] [--no-memory-reducer] [--store=memory]
//
// Interleaved slices. On the shared 2-core VMs this runs on, identity alone measured for 1 s thirty times
// in a row gave 18–21k req/s for a few seconds, then 11k for four seconds, then 15–21k again (pinned to
// its own core or not): the machine switches between a fast and a slow speed every few seconds, with
// its neighbours' load. Ten-second runs one target after another (this script until 2026-11-28) thus
// compared the targets at different speeds, and one round's ratio moved by ±15 points. Each round now
// runs `--cycles` cycles; a cycle measures every target for `--slice` seconds in turn, in forward order
// and reversed in the next cycle. A round's figure is the median of its cycles' ratios — a cycle that
// straddles a change of speed is an outlier the median ignores — with the interquartile range of those
// ratios and the ratio of the requests summed over all cycles beside it.
//
// While one process is measured the other is stopped (SIGSTOP; wrk.mjs withStopped): left running, it
// collected garbage and ran its timers beside the one measured, which moved the figures of two
// identical processes by up to 6 % depending on the order they ran in. --keep-idle-running leaves it.
// The single process starts as `npm start` starts it, with its heap floor (libs/core/src/heap.ts);
// --no-heap-floor starts it without. Identity alone starts as it is deployed, without one.
//
// --targets measures some of the four only (identity alone is always measured). The single process
// serving its identity port and the reverse proxy's headers beside its gateway is not how it is
// deployed: its shared code (Node's HTTP server, Fastify, the store) then sees request headers of
// three shapes — without the forwarded headers, with the gateway's, with the proxy's as well — where
// a deployment sends it one. `--targets=alone,gateway` measures it as deployed.
//
// `variant` (in --targets) starts a second single process with --variant-flags (node flags, comma-separated)
// and measures it through its gateway in the same cycles, beside the first: a change of launch flags
// judged against the same moments of the machine, not against another run's. `alone-variant` does the
// same for identity alone (--alone-variant-flags): whether a flag that helps the single process helps
// the service alone as much, which decides whether it belongs on every process's launch command.
// Without flags it is a second identity alone of the same code: two such processes served 91.2–111.0 %
// of each other in a round (eight rounds on a 2-core AMD EPYC VM, 2026-11-29; ADR 0016, revision of
// 2026-11-30), so the gateway is also given against the mean of the two.
//
// --processes=N starts N processes of every kind measured (identity alone, the single process, each
// variant) and measures each of them in every cycle, the kinds side by side; a kind's rate in a cycle is
// the mean of its processes'. Two processes of the same code and flags differ by up to 11 % for as long
// as they run — something decided at each one's start, and not by the virtual layout alone: without
// address-space randomisation and with fixed V8 seeds they spread as far (2026-11-30; ADR 0016, revision
// of 2026-11-30) — so a figure from one process of each kind is as much a draw of two starts as a
// measure of the code. N processes of each kind average N draws; each process's mean against its
// kind's is printed, which shows the spread between them.
//
// --no-memory-reducer starts every process with V8's `--no-memory-reducer`. Between its slices a
// process is stopped for the other processes' slices, and once it has been idle long enough V8's memory
// reducer runs collections that shrink its heap, which slows it in its next slices; a process under
// steady load never gets there. With three processes of each kind (about 8 s between a process's slices)
// and the default flags, the single process measured 104–106 % of identity alone at its identity port
// and 99–102 % through its gateway, in five rounds; with the reducer off in every process, 96–101 % and
// 91–96 % (a 2-core Intel Xeon VM, 2026-11-30; ADR 0016, revision of that day): identity alone, which has
// no heap floor, lost the most to it.
// So use the flag whenever --processes is above 1.
//
// --store=file runs every process on the embedded store in a fresh directory of its own, as `npm start`
// and a service started without STORE_URL run (the configuration issue 16's first figure was measured
// in); by default they run on the memory store, where a request does the least work besides HTTP and
// the gateway's share of it is the largest.
import {
  BenchError,
  cycleOrder,
  flag,
  listOption,
  loadavg,
  option,
  quartiles,
  runMain,
} from '../lib/cli.mjs';
import { startSingleProcess } from './single.mjs';
import { requireTools, startIdentityAlone, withStopped, wrk } from './wrk.mjs';

const ROUNDS = Number(option('rounds', '2'));
const CYCLES = Number(option('cycles', '20'));
const SLICE = Number(option('slice', '1'));
const CONNECTIONS = Number(option('connections', '50'));
// Processes of each kind (--processes): a target's rate in a cycle is the mean of its processes'.
const PROCESSES = Number(option('processes', '1'));
const STORE = option('store', 'memory');
// Both processes' LOG_LEVEL; their log lines go to /dev/null. `info` is what they are deployed with.
const LOG_LEVEL = option('log-level', 'warn');
// Issue 16's target.
const TARGET = 0.9;
/** Headers a reverse proxy on this machine adds (it connects from loopback, which TRUST_PROXY trusts). */
const BEHIND_PROXY = ['X-Forwarded-For: 203.0.113.7', 'X-Forwarded-Proto: https'];
const ALONE = 'identity alone';
const OWN = 'single process, its identity port';
const GATEWAY = 'single process, through its gateway';
const PROXIED = 'the same, behind a reverse proxy';
const VARIANT = `single process with ${option('variant-flags', '')}, through its gateway`;
const ALONE_VARIANT_FLAGS = option('alone-variant-flags', '');
const ALONE_VARIANT = ALONE_VARIANT_FLAGS
  ? `identity alone with ${ALONE_VARIANT_FLAGS}`
  : 'a second identity alone';
/** Both identity-alone processes, as one figure: the mean of their rates in each cycle. */
const ALONES = `identity alone (the mean of ${2 * PROCESSES} processes)`;
const CHOSEN = new Set(['alone', ...option('targets', 'alone,own,gateway,proxied').split(',')]);
const TARGET_NAMES = {
  alone: ALONE,
  own: OWN,
  gateway: GATEWAY,
  proxied: PROXIED,
  variant: VARIANT,
  'alone-variant': ALONE_VARIANT,
};
for (const t of CHOSEN)
  if (!TARGET_NAMES[t]) throw new BenchError(`unknown target ${t} (${Object.keys(TARGET_NAMES).join(', ')})`);

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const mean = (values) => values.reduce((t, v) => t + v, 0) / values.length;

/** The median of the cycles' ratios `a / b`, their interquartile range, and `a / b` over the sums. */
function ratio(cycles, a, b) {
  const sum = (name) => cycles.reduce((total, c) => total + c[name], 0);
  const { q1, median, q3 } = quartiles(cycles.map((c) => c[a] / c[b]));
  return { value: median, q1, q3, sums: sum(a) / sum(b) };
}

const described = ({ value, q1, q3, sums }) =>
  `${pct(value)} (interquartile ${pct(q1)}–${pct(q3)}; sums ${pct(sums)})`;

/** Starts `count` processes one after another (start-up is CPU-heavy); stops them all if one fails. */
async function startMany(count, start) {
  const started = [];
  try {
    for (let i = 0; i < count; i++) started.push(await start());
    return started;
  } catch (err) {
    await Promise.all(started.map((p) => p.stop()));
    throw err;
  }
}

runMain(async () => {
  requireTools();
  if (!(Number.isInteger(PROCESSES) && PROCESSES >= 1))
    throw new BenchError('--processes must be an integer ≥ 1');
  if (STORE !== 'memory' && STORE !== 'file') throw new BenchError('--store must be memory or file');
  const fileStore = STORE === 'file';
  const heapFloor = !flag('no-heap-floor');
  // Appended to every process's node flags (the header says why).
  const steady = flag('no-memory-reducer') ? ['--no-memory-reducer'] : [];
  if (PROCESSES > 1 && steady.length === 0)
    console.log(
      'note: without --no-memory-reducer, processes idle between their slices shrink their heaps and identity alone loses more than the single process',
    );
  const stopIdle = !flag('keep-idle-running');
  const running = [];
  // N processes of each kind, with the node flags of option `flags` (and the memory reducer's).
  const startAlones = (flags) =>
    startMany(PROCESSES, () =>
      startIdentityAlone({ nodeFlags: [...listOption(flags), ...steady], logLevel: LOG_LEVEL, fileStore }),
    );
  const startSingles = (flags) =>
    startMany(PROCESSES, () =>
      startSingleProcess({
        heapFloor,
        execArgv: [...listOption(flags), ...steady],
        logLevel: LOG_LEVEL,
        fileStore,
      }),
    );
  const alones = await startAlones('alone-flags');
  running.push(...alones);
  try {
    const singles = await startSingles('single-flags');
    running.push(...singles);
    // Single processes started with other flags, measured through their gateway beside the first.
    const variants = CHOSEN.has('variant') ? await startSingles('variant-flags') : [];
    running.push(...variants);
    // Identity-alone processes started with other flags (or none: more samples of identity alone).
    const aloneVariants = CHOSEN.has('alone-variant') ? await startAlones('alone-variant-flags') : [];
    running.push(...aloneVariants);

    const pids = running.map((p) => p.pid ?? p.child.pid);
    const others = (pid) => pids.filter((p) => p !== pid);
    // Per target, one [url, token, extra headers, the processes left idle meanwhile] for each of its processes.
    const aloneWays = (list) => list.map((p) => [p.me, p.token, [], others(p.pid)]);
    const gatewayWays = (list, headers = []) =>
      list.map((p) => [p.urls.gateway, p.token, headers, others(p.child.pid)]);
    const all = {
      [ALONE]: aloneWays(alones),
      [OWN]: singles.map((p) => [p.urls.direct, p.token, [], others(p.child.pid)]),
      [GATEWAY]: gatewayWays(singles),
      // What a deployment behind Caddy or nginx on the same machine sends (a trusted loopback peer).
      [PROXIED]: gatewayWays(singles, BEHIND_PROXY),
      [VARIANT]: gatewayWays(variants),
      [ALONE_VARIANT]: aloneWays(aloneVariants),
    };
    const chosen = new Set([...CHOSEN].map((t) => TARGET_NAMES[t]));
    const targets = Object.fromEntries(Object.entries(all).filter(([name]) => chosen.has(name)));
    const names = Object.keys(targets);
    // A cycle's slots: the first process of every target, then the second of every target, and so on —
    // the kinds side by side in time — in forward order, reversed in the next cycle.
    const slots = [];
    for (let i = 0; i < PROCESSES; i++) for (const name of names) slots.push([name, i]);
    const run = ([url, token, headers, idle], seconds) =>
      withStopped(stopIdle ? idle : [], () => wrk({ url, token, seconds, connections: CONNECTIONS, headers }))
        .rps;
    for (const [name, i] of slots) run(targets[name][i], 3); // warm-up
    console.log(
      `wrk -t1 -c${CONNECTIONS} GET /account/me, ${ROUNDS} rounds of ${CYCLES} cycles of ${SLICE} s a target, ` +
        `${PROCESSES} process${PROCESSES > 1 ? 'es' : ''} of each kind, the ${STORE} store, ` +
        `V8's memory reducer ${steady.length > 0 ? 'off' : 'on'}, ` +
        `load ${loadavg()}, LOG_LEVEL=${LOG_LEVEL}, single process's heap floor ${heapFloor ? 'on' : 'off'}, ` +
        `the process not measured ${stopIdle ? 'stopped (SIGSTOP)' : 'left running'}`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const cycles = [];
      // Per target, each process's rates over the round: how far apart processes of one kind are.
      const perProcess = Object.fromEntries(
        names.map((n) => [n, Array.from({ length: PROCESSES }, () => [])]),
      );
      for (let c = 0; c < CYCLES; c++) {
        const rates = Object.fromEntries(names.map((n) => [n, []]));
        for (const [name, i] of cycleOrder(c, slots)) {
          const rps = run(targets[name][i], SLICE);
          rates[name].push(rps);
          perProcess[name][i].push(rps);
        }
        // A target's rate in a cycle: the mean of its processes'.
        cycles.push(Object.fromEntries(names.map((n) => [n, mean(rates[n])])));
      }
      const meanOf = (name) => Math.round(mean(cycles.map((c) => c[name])));
      console.log(`  round ${round}: ${names.map((n) => `${n} ${meanOf(n)} req/s`).join(', ')} (means)`);
      if (PROCESSES > 1)
        for (const name of names) {
          const means = perProcess[name].map(mean);
          const kind = mean(means);
          console.log(
            `    ${name}, each process against their mean: ${means.map((m) => pct(m / kind)).join(', ')}`,
          );
        }
      const has = (name) => name in targets;
      const againstOwn = (name) =>
        has(OWN) ? `, ${described(ratio(cycles, name, OWN))} of its own identity port` : '';
      if (has(GATEWAY)) {
        const gateway = ratio(cycles, GATEWAY, ALONE);
        console.log(
          `    through the gateway: ${described(gateway)} of identity alone (target ≥ ${TARGET * 100} %: ` +
            `${gateway.value >= TARGET ? 'met' : 'NOT met'})${againstOwn(GATEWAY)}`,
        );
      }
      if (has(OWN))
        console.log(`    its identity port: ${described(ratio(cycles, OWN, ALONE))} of identity alone`);
      if (has(PROXIED))
        console.log(
          `    behind a reverse proxy: ${described(ratio(cycles, PROXIED, ALONE))} of identity alone${againstOwn(PROXIED)}`,
        );
      if (has(VARIANT))
        console.log(
          `    with ${option('variant-flags', '')}: ${described(ratio(cycles, VARIANT, ALONE))} of identity alone` +
            (has(GATEWAY) ? `, ${described(ratio(cycles, VARIANT, GATEWAY))} of the first` : ''),
        );
      if (has(ALONE_VARIANT) && !ALONE_VARIANT_FLAGS && has(GATEWAY)) {
        // Two processes of the same code differ by up to 11 % in a round (ADR 0016, revision of 2026-11-30):
        // their mean is the steadier measure of what identity alone serves.
        for (const c of cycles) c[ALONES] = (c[ALONE] + c[ALONE_VARIANT]) / 2;
        const gateway = ratio(cycles, GATEWAY, ALONES);
        console.log(
          `    through the gateway: ${described(gateway)} of ${ALONES} (target ≥ ${TARGET * 100} %: ` +
            `${gateway.value >= TARGET ? 'met' : 'NOT met'})`,
        );
      }
      if (has(ALONE_VARIANT))
        console.log(
          `    ${ALONE_VARIANT}: ` +
            `${described(ratio(cycles, ALONE_VARIANT, ALONE))} of identity alone` +
            (has(VARIANT)
              ? `; the single process's variant ${described(ratio(cycles, VARIANT, ALONE_VARIANT))} of it`
              : ''),
        );
    }
    console.log(`load average after: ${loadavg()}`);
  } finally {
    await Promise.all(running.map((p) => p.stop()));
  }
});
