// An open-loop load for latency at a given request rate (bench/gateway/run.mjs): requests are sent
// evenly spaced at `rate` per second whatever the pace of the answers, as wrk2 sends them, and each is
// timed from when it was due, not from when a connection was free to send it — a server that stalls is
// charged for every request that waited behind it (no coordinated omission). autocannon's overallRate
// is no substitute: it lets every connection send its share at the same instant, so 50 connections at
// half the server's rate arrive as bursts of 50 and the p50 is a queue's (117 ms against 3 ms at one
// connection, for the reader's 145 KB entries page).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { cycleOrder, stats } from './cli.mjs';

/**
 * `GET url` at `rate` requests/s for `seconds` over at most `connections` keep-alive connections. Resolves
 * with every answer's time in ms (from when it was due to its last byte) and the failures.
 */
export async function pacedLoad({ url, headers = {}, rate, seconds, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const samples = [];
  const result = { samples, non2xx: 0, errors: 0, timeouts: 0, total: 0 };
  let sent = 0;
  let settled = 0;
  const start = performance.now() + 10;
  try {
    await new Promise((resolve) => {
      const done = () => {
        settled++;
        if (settled === total) resolve();
      };
      const send = (due) => {
        let finished = false;
        // One outcome a request: an answer, or the first error (a timeout is also an error).
        const finish = (count) => {
          if (finished) return;
          finished = true;
          count();
          done();
        };
        const req = http.get(url, { agent, headers }, (res) => {
          res.on('data', () => {});
          res.on('end', () =>
            finish(() => {
              samples.push(performance.now() - due);
              result.total++;
              if (res.statusCode < 200 || res.statusCode > 299) result.non2xx++;
            }),
          );
          res.on('error', () => finish(() => result.errors++));
        });
        req.setTimeout(10_000, () => {
          finish(() => result.timeouts++);
          req.destroy();
        });
        req.on('error', () => finish(() => result.errors++));
      };
      const tick = () => {
        const now = performance.now();
        while (sent < total && start + sent * interval <= now) send(start + sent++ * interval);
        if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      };
      setTimeout(tick, 10);
    });
  } finally {
    agent.destroy();
  }
  return result;
}

/**
 * Both `urls` at `rate` requests/s on at most `connections` connections (pacedLoad), in `slices`
 * interleaved slices of `sliceSeconds` (first, second, then second, first, …) so that both see the same
 * machine: on the shared VMs these benchmarks run on its speed changes every few seconds
 * (bench/gateway/wrk-single.mjs). Resolves with each side's rate, p50 and p99 over all its answers, and
 * its failures.
 */
export async function pacedCompare({ urls, headers = {}, rate, connections, slices = 10, sliceSeconds = 2 }) {
  const sides = urls.map(() => ({ samples: [], non2xx: 0, errors: 0, timeouts: 0, total: 0 }));
  for (let slice = 0; slice < slices; slice++) {
    for (const side of cycleOrder(slice, [0, 1])) {
      const r = await pacedLoad({ url: urls[side], headers, rate, seconds: sliceSeconds, connections });
      const into = sides[side];
      into.samples.push(...r.samples);
      for (const k of ['non2xx', 'errors', 'timeouts', 'total']) into[k] += r[k];
    }
  }
  return sides.map(({ samples, ...counts }) => {
    const s = stats(samples);
    return {
      requestsPerSecond: Math.round(counts.total / (slices * sliceSeconds)),
      p50Ms: s.p50,
      p99Ms: s.p99,
      ...counts,
    };
  });
}
