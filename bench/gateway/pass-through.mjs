#!/usr/bin/env node
// What the distributed gateway costs to pass a large answer on, against the least a Node proxy can
// cost: one upstream answering every GET with an entries page's bytes (145,183 by default, the reader's
// `entries.json?per_page=100` in run.mjs) and three proxies in front of it, each in its own process —
// the gateway as deployed (READER_URL pointing at the upstream), a bare undici Pool.dispatch proxy and a
// bare node:http pipe proxy (pass-through-helpers.mjs). wrk drives the upstream directly and each proxy
// for `--seconds` at `--connections` (default 4: the proxies are not saturated), `--rounds` interleaved
// rounds; the CPU time of the process in front is read from /proc around each run. Prints µs of CPU
// per answer for each proxy and for the upstream, and the p50/p99 of each path. Needs wrk. After a build:
//   node bench/gateway/pass-through.mjs [--bytes=145183] [--rounds=4] [--seconds=3] [--connections=4]
import {
  cycleOrder,
  freePort,
  loadavg,
  machine,
  option,
  processCpuSeconds,
  quartiles,
  runMain,
} from '../lib/cli.mjs';
import { requireTools, startGatewayAlone, startHelper, wrk } from './wrk.mjs';

const BYTES = Number(option('bytes', '145183'));
const ROUNDS = Number(option('rounds', '4'));
const SECONDS = Number(option('seconds', '3'));
const CONNECTIONS = Number(option('connections', '4'));
const HELPERS = 'bench/gateway/pass-through-helpers.mjs';
const PATH = '/feeds/v2/entries.json?per_page=100';

runMain(async () => {
  requireTools();
  const started = [];
  try {
    const upstreamPort = await freePort();
    const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
    const upstream = await startHelper(HELPERS, {
      ROLE: 'upstream',
      PORT: String(upstreamPort),
      BYTES: String(BYTES),
    });
    started.push(upstream);
    const paths = { direct: { url: `${upstreamUrl}${PATH}`, pid: upstream.pid } };
    for (const role of ['undici', 'node']) {
      const port = await freePort();
      const proxy = await startHelper(HELPERS, { ROLE: role, PORT: String(port), UPSTREAM_URL: upstreamUrl });
      started.push(proxy);
      paths[`bare ${role} proxy`] = { url: `http://127.0.0.1:${port}${PATH}`, pid: proxy.pid };
    }
    const gatewayPort = await freePort();
    const gateway = await startGatewayAlone({
      port: gatewayPort,
      identityUrl: upstreamUrl,
      targets: { READER_URL: upstreamUrl },
    });
    started.push(gateway);
    paths.gateway = { url: `${gateway.url}${PATH}`, pid: gateway.pid };

    const names = Object.keys(paths);
    const run = (name, seconds) => {
      const { url, pid } = paths[name];
      const [front, back] = [processCpuSeconds(pid), processCpuSeconds(upstream.pid)];
      const r = wrk({ url, token: 'none', seconds, connections: CONNECTIONS, headers: [] });
      const frontUs = ((processCpuSeconds(pid) - front) / r.total) * 1e6;
      const upstreamUs = ((processCpuSeconds(upstream.pid) - back) / r.total) * 1e6;
      return { ...r, frontUs: name === 'direct' ? 0 : frontUs, upstreamUs };
    };
    for (const name of names) run(name, 1); // warm-up
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const name of cycleOrder(round, names)) samples[name].push(run(name, SECONDS));

    console.log(
      `GET ${PATH} answered with ${BYTES} bytes, wrk -t1 -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s a path, ` +
        `${machine()}, load ${loadavg()}; medians of the rounds`,
    );
    const med = (name, key) => quartiles(samples[name].map((s) => s[key])).median;
    for (const name of names) {
      const front =
        name === 'direct' ? '' : `, the proxy ${med(name, 'frontUs').toFixed(0)} µs of CPU an answer`;
      console.log(
        `  ${name.padEnd(18)} ${med(name, 'rps').toFixed(0)} req/s, p50 ${med(name, 'p50Ms').toFixed(2)} ms, ` +
          `p99 ${med(name, 'p99Ms').toFixed(2)} ms${front}, the upstream ${med(name, 'upstreamUs').toFixed(0)} µs`,
      );
    }
  } finally {
    for (const s of started.reverse()) await s.stop();
  }
});
