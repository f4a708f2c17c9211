#!/usr/bin/env node
// What every service's per-request metrics cost: the two updates each answered request makes
// (`http_requests_total` and `http_request_duration_seconds`, by method, route and status), with
// prom-client's Counter and Histogram as the services used them until 2026-11-29 and with the plain
// counters that replaced them (libs/http/src/request-metrics.ts). Prints ns per request of
// each, over `--requests` updates spread over four routes and two statuses, three rounds. After a build:
//   node bench/request-metrics/run.mjs [--requests=1000000]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DURATION_BUCKETS, RequestMetrics } from '@murmur/http';
import { loadavg, machine, option } from '../lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// prom-client is the platform's dependency: loaded from there.
const { Counter, Histogram, Registry } = createRequire(join(root, 'libs/http/package.json'))('prom-client');
const REQUESTS = Number(option('requests', '1000000'));
const ROUTES = ['/account/me', '/feeds/v2/entries.json', '/feeds/v2/entries/:id.json', 'unmatched'];

const registry = new Registry();
registry.setDefaultLabels({ service: 'bench' });
const labelNames = ['method', 'route', 'status'];
const counter = new Counter({ name: 'http_requests_total', help: '-', labelNames, registers: [registry] });
const histogram = new Histogram({
  name: 'http_request_duration_seconds',
  help: '-',
  labelNames,
  buckets: [...DURATION_BUCKETS],
  registers: [registry],
});
const plain = new RequestMetrics('bench');

const ways = {
  'prom-client Counter + Histogram': (i) => {
    const labels = { method: 'GET', route: ROUTES[i & 3], status: String(200 + (i & 1)) };
    counter.inc(labels);
    histogram.observe(labels, (i % 100) / 1000);
  },
  'RequestMetrics (plain counters)': (i) =>
    plain.observe('GET', ROUTES[i & 3], 200 + (i & 1), (i % 100) / 1000),
};

console.log(`${REQUESTS} updates a round, ${machine()}, Node ${process.version}, load ${loadavg()}`);
for (let round = 1; round <= 3; round++) {
  const row = [];
  for (const [name, update] of Object.entries(ways)) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < REQUESTS; i++) update(i);
    row.push(`${name} ${(Number(process.hrtime.bigint() - started) / REQUESTS).toFixed(0)} ns`);
  }
  console.log(`  round ${round}: ${row.join(', ')} a request`);
}
