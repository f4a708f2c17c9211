#!/usr/bin/env node
// WebSub hub benchmark (bench/README.md "WebSub hub"): one post of ada whose feed.xml has 10,000
// subscribers (each with a secret, so every delivery is signed) on 100 local callback hosts, timed
// from the post event to the last delivery received, with the service's CPU and peak resident memory.
// The service runs in its own process (server.mjs), the 100 hosts in another (receivers.mjs), this
// process drives and measures. Run after a build, from the repository root:
//   node bench/websub/run.mjs [--subscribers=10000] [--hosts=100] [--posts=1] [--store=file|memory] [--json]
//                             [--cpu-prof=DIR]   (a CPU profile of the service process)
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchError,
  benchDataDir,
  flag,
  forkServer,
  freePort,
  loadavg,
  log,
  machine,
  option,
  processCpuSeconds,
  processRssMiB,
  runMain,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SUBSCRIBERS = Number(option('subscribers', '10000'));
const HOSTS = Number(option('hosts', '100'));
const POSTS = Number(option('posts', '1'));
const STORE = option('store', 'file');
const TARGET = 1000;

function uptime() {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${loadavg()}`;
  }
}

async function main() {
  const data = benchDataDir('murmur-bench-websub-');
  const receivers = await forkServer(join(here, 'receivers.mjs'), {
    execArgv: [],
    env: { BENCH_RECEIVERS: String(HOSTS) },
  });
  const hosts = receivers.ports.map((p) => `127.0.0.1:${p}`);
  const port = await freePort();
  log(`seeding ${SUBSCRIBERS} subscriptions over ${HOSTS} callback hosts (${STORE} store) …`);
  const server = await forkServer(join(here, 'server.mjs'), {
    execArgv: option('cpu-prof', '') ? ['--cpu-prof', `--cpu-prof-dir=${option('cpu-prof', '')}`] : [],
    env: {
      BENCH_HOSTS: hosts.join(','),
      BENCH_SUBSCRIBERS: String(SUBSCRIBERS),
      BENCH_STORE: STORE,
      BENCH_DATA_DIR: data.dir,
      BENCH_PORT: String(port),
    },
  });
  try {
    const runs = [];
    const loadBefore = uptime();
    for (let p = 0; p < POSTS; p++) {
      const expected = SUBSCRIBERS * (p + 1);
      const rssBefore = processRssMiB(server.pid);
      let peakRss = rssBefore;
      const cpuBefore = processCpuSeconds(server.pid);
      const started = performance.now();
      await server.ask({ type: 'publish' }, 'published');
      let got = 0;
      let firstAt;
      for (;;) {
        got = (await receivers.ask('count', 'count')).received;
        if (firstAt === undefined && got > SUBSCRIBERS * p) firstAt = performance.now();
        peakRss = Math.max(peakRss, processRssMiB(server.pid));
        if (got >= expected) break;
        if (performance.now() - started > 600_000)
          throw new BenchError(`only ${got - SUBSCRIBERS * p} of ${SUBSCRIBERS} deliveries in 10 minutes`);
        await sleep(20);
      }
      const seconds = (performance.now() - started) / 1000;
      const cpu = processCpuSeconds(server.pid) - cpuBefore;
      runs.push({
        post: p + 1,
        seconds: Math.round(seconds * 100) / 100,
        firstDeliveryMs: Math.round((firstAt ?? performance.now()) - started),
        deliveriesPerSecond: Math.round(SUBSCRIBERS / seconds),
        serviceCpuSeconds: Math.round(cpu * 100) / 100,
        // What the hub's own CPU allows: on a shared machine the wall-clock rate also counts the neighbours.
        deliveriesPerCpuSecond: Math.round(SUBSCRIBERS / cpu),
        serviceRssMiB: { before: Math.round(rssBefore), peak: Math.round(peakRss) },
      });
    }
    const { received, signed, linked } = await receivers.ask('count', 'count');
    if (signed !== received || linked !== received)
      throw new BenchError(`${received - signed} deliveries unsigned, ${received - linked} without Link`);
    const counts = await server.ask('counts', 'counts');
    const result = {
      machine: machine(),
      uptimeBefore: loadBefore,
      uptimeAfter: uptime(),
      store: STORE,
      subscribers: SUBSCRIBERS,
      hosts: HOSTS,
      runs,
      jobs: counts.jobs,
    };
    if (flag('json')) console.log(JSON.stringify(result, null, 2));
    log(`machine: ${result.machine}`);
    log(`uptime before: ${result.uptimeBefore}`);
    for (const r of runs)
      log(
        `post ${r.post}: ${SUBSCRIBERS} signed deliveries (${HOSTS} callback hosts) in ${r.seconds} s = ${r.deliveriesPerSecond}/s ` +
          `(target ≥ ${TARGET}/s: ${verdict(r.deliveriesPerSecond >= TARGET)}); first after ${r.firstDeliveryMs} ms; ` +
          `service CPU ${r.serviceCpuSeconds} s (${r.deliveriesPerCpuSecond} deliveries per CPU second); RSS ${r.serviceRssMiB.before} → peak ${r.serviceRssMiB.peak} MiB`,
      );
    log(`delivery jobs: ${JSON.stringify(counts.jobs)}`);
    log(`uptime after: ${result.uptimeAfter}`);
  } finally {
    await server.stop().catch(() => undefined);
    await receivers.stop().catch(() => undefined);
    data.remove();
  }
}

runMain(main);
