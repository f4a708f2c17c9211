// The per-request metrics are counted in plain numbers (src/http/request-metrics.ts); what a scraper
// reads must be what prom-client wrote for the same requests before, so it is checked against
// prom-client itself.
import { describe, expect, it } from '@jest/globals';
import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, RequestMetrics } from '../src/request-metrics.js';

type Observation = [method: string, route: string, status: number, seconds: number];

/** The same observations through prom-client's Counter and Histogram, as observability.ts used them. */
async function promClientText(service: string, observations: Observation[]): Promise<string> {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request start to response end, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [...DURATION_BUCKETS],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  }
  return registry.metrics();
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('request metrics', () => {
  it('write the text prom-client wrote for the same requests, line for line', async () => {
    const observations: Observation[] = [
      ['GET', '/account/me', 200, 0.0031],
      ['GET', '/account/me', 200, 0.005], // on a bucket's bound: counted in it
      ['GET', '/account/me', 401, 0.0004],
      ['POST', '/account/me', 200, 0.7],
      ['GET', '/feeds/v2/entries.json', 200, 31], // beyond the last bound: +Inf only
      ['GET', 'unmatched', 404, 0.012],
      ['GET', 'with "quotes", a \\ and a\nline', 500, 2.5],
    ];
    const metrics = new RequestMetrics('reader');
    for (const o of observations) metrics.observe(...o);
    expect(lines(metrics.render())).toEqual(lines(await promClientText('reader', observations)));
  });

  it('count a series from its first request on, and write only the headers before any', async () => {
    const metrics = new RequestMetrics('identity');
    expect(lines(metrics.render())).toEqual([
      '# HELP http_requests_total HTTP requests answered, by method, route pattern and status.',
      '# TYPE http_requests_total counter',
      '# HELP http_request_duration_seconds Time from request start to response end, by method, route pattern and status.',
      '# TYPE http_request_duration_seconds histogram',
    ]);
    metrics.observe('GET', '/account/me', 200, 0.02);
    metrics.observe('GET', '/account/me', 200, 0.2);
    const text = metrics.render();
    expect(text).toContain(
      'http_requests_total{method="GET",route="/account/me",status="200",service="identity"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.01",service="identity",method="GET",route="/account/me",status="200"} 0',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.025",service="identity",method="GET",route="/account/me",status="200"} 1',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.25",service="identity",method="GET",route="/account/me",status="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_sum{service="identity",method="GET",route="/account/me",status="200"} 0.22',
    );
  });
});
