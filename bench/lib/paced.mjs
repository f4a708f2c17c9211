// An open-loop load for latency at a given request rate (bench/gateway/run.mjs): requests are sent
// evenly spaced at `rate` per second whatever the pace of the answers, as wrk2 sends them, and each is
// timed from when it was due, not from when a connection was free to send it — a server that stalls is
// charged for every request that waited behind it (no coordinated omission). autocannon's overallRate
// is no substitute: it lets every connection send its share at the same instant, so 50 connections at
// half the server's rate arrive as bursts of 50 and the p50 is a queue's (117 ms against 3 ms at one
// connection, for the reader's 145 KB entries page).
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { BenchError, cycleOrder, stats } from './cli.mjs';

// The client reads every answer into one buffer per connection, reused (`net.connect`'s `onread`),
// and frames answers by Content-Length itself. With `http.get` each socket read was a fresh buffer
// outside the heap, and at 226 entries pages (145 KB) a second the benchmark process ran 204 full
// collections in 80 s for that memory (pauses of 3–8 ms and marking steps of up to 11 ms), which landed
// in both sides' p99 (measured 2026-11-28; 11 full collections in the same run after the change).
// Answers without a Content-Length, or a second answer where none was asked for, are errors of the
// benchmark, not measurements.
const READ_BUFFER_BYTES = 256 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection sending `request` and timing each answer from its due time.
 * `onDone(connection, outcome)`: after each answer (`{ ms, status }`), after a failure of the request
 * in flight (`{ error }`), or with `null` when an idle connection closed.
 */
class Connection {
  constructor(host, port, request, onDone) {
    this.request = request;
    this.onDone = onDone;
    this.busy = false;
    this.closed = false;
    this.due = 0;
    this.head = '';
    this.remaining = -1;
    this.socket = net.connect({
      host,
      port,
      noDelay: true,
      onread: { buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES), callback: (n, buf) => this.read(n, buf) },
    });
    this.socket.on('error', () => this.fail());
    this.socket.on('close', () => this.fail());
  }

  send(due) {
    this.busy = true;
    this.due = due;
    this.head = '';
    this.remaining = -1;
    this.socket.write(this.request);
  }

  read(n, buf) {
    if (!this.busy) return this.fail(new BenchError('bytes from the server when no request was in flight'));
    let offset = 0;
    if (this.remaining < 0) {
      let head;
      if (this.head === '') {
        const end = buf.subarray(0, n).indexOf(HEAD_END);
        if (end >= 0) {
          head = buf.latin1Slice(0, end);
          offset = end + HEAD_END.length;
        }
      } else {
        // The head began in an earlier read (rare: heads are a few hundred bytes); its end may straddle.
        const text = this.head + buf.latin1Slice(0, Math.min(n, 16 * 1024));
        const end = text.indexOf('\r\n\r\n');
        if (end >= 0) {
          head = text.slice(0, end);
          offset = end + HEAD_END.length - this.head.length;
        }
      }
      if (head === undefined) {
        this.head += buf.latin1Slice(0, n);
        if (this.head.length > 16 * 1024) this.fail(new BenchError('an answer head over 16 KB'));
        return;
      }
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) return this.fail(new BenchError(`an answer without Content-Length:\n${head}`));
      this.status = Number(head.slice(9, 12));
      this.keepAlive = !/\r\nconnection:\s*close/i.test(head);
      this.remaining = Number(length[1]);
    }
    this.remaining -= n - offset;
    if (this.remaining > 0) return;
    if (this.remaining < 0) return this.fail(new BenchError("more bytes than the answer's Content-Length"));
    this.busy = false;
    if (!this.keepAlive) {
      // Closed before it is offered for the next request.
      this.closed = true;
      this.socket.destroy();
    }
    this.onDone(this, { ms: performance.now() - this.due, status: this.status });
  }

  fail(error) {
    if (error) this.error ??= error;
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    const wasBusy = this.busy;
    this.busy = false;
    this.onDone(this, wasBusy ? { error: error ?? new Error('connection closed') } : null);
  }
}

/**
 * `GET url` at `rate` requests/s for `seconds` over at most `connections` keep-alive connections. Resolves
 * with every answer's time in ms (from when it was due to its last byte) and the failures.
 */
export async function pacedLoad({ url, headers = {}, rate, seconds, connections }) {
  const { hostname, port, pathname, search, host } = new URL(url);
  const lines = [`GET ${pathname}${search} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const samples = [];
  const result = { samples, non2xx: 0, errors: 0, timeouts: 0, total: 0 };
  const open = new Set();
  const idle = [];
  const waiting = []; // due times of requests waiting for a free connection
  const timers = new Map();
  let sent = 0;
  let settled = 0;
  let failure = null;
  const start = performance.now() + 10;
  await new Promise((resolve) => {
    const settle = () => {
      settled++;
      if (settled === total) resolve();
    };
    const onDone = (connection, outcome) => {
      clearTimeout(timers.get(connection));
      timers.delete(connection);
      if (connection.error) failure ??= connection.error;
      if (outcome?.error) result.errors++;
      else if (outcome) {
        samples.push(outcome.ms);
        result.total++;
        if (outcome.status < 200 || outcome.status > 299) result.non2xx++;
      }
      if (outcome) settle();
      if (connection.closed) open.delete(connection);
      else idle.push(connection);
      if (waiting.length > 0) dispatch(waiting.shift());
    };
    const dispatch = (due) => {
      let connection = idle.pop();
      while (connection?.closed) connection = idle.pop(); // closed by the server while idle
      if (!connection && open.size < connections) {
        connection = new Connection(hostname, Number(port), request, onDone);
        open.add(connection);
      }
      if (!connection) return waiting.push(due);
      connection.send(due);
      timers.set(
        connection,
        setTimeout(() => {
          result.timeouts++;
          result.errors--; // counted once, as a timeout
          connection.fail();
        }, 10_000),
      );
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) dispatch(start + sent++ * interval);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    setTimeout(tick, 10);
  });
  for (const connection of open) connection.socket.destroy();
  if (failure) throw failure;
  return result;
}

/**
 * Both `urls` at `rate` requests/s on at most `connections` connections (pacedLoad), in `slices`
 * interleaved slices of `sliceSeconds` (first, second, then second, first, …) so that both see the same
 * machine: on the shared VMs these benchmarks run on its speed changes every few seconds
 * (bench/gateway/wrk-single.mjs). `onSlice(side, 'start' | 'end')` is called around each slice. Resolves
 * with each side's rate, p50 and p99 over all its answers, and its failures.
 */
export async function pacedCompare({
  urls,
  headers = {},
  rate,
  connections,
  slices = 10,
  sliceSeconds = 2,
  onSlice = () => {},
}) {
  const sides = urls.map(() => ({ samples: [], non2xx: 0, errors: 0, timeouts: 0, total: 0 }));
  for (let slice = 0; slice < slices; slice++) {
    for (const side of cycleOrder(slice, [0, 1])) {
      onSlice(side, 'start');
      const r = await pacedLoad({ url: urls[side], headers, rate, seconds: sliceSeconds, connections });
      onSlice(side, 'end');
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
