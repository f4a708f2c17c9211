import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('/metrics on the internal port', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['feeds']);
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('counts requests by service and status and records upstream latency', async () => {
    await send(gateway.url, 'GET', '/feeds/ada.json');
    await send(gateway.url, 'GET', '/feeds/ada.json');
    await send(gateway.url, 'GET', '/feeds/v2/entries.json');
    await send(gateway.url, 'GET', '/nowhere');

    const res = await send(gateway.internalUrl, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('gateway_requests_total{service="feeds",status="200"} 2');
    expect(res.text).toContain('gateway_requests_total{service="reader",status="503"} 1');
    expect(res.text).toContain('gateway_requests_total{service="gateway",status="404"} 1');
    expect(res.text).toContain('gateway_upstream_duration_seconds_count{service="feeds"} 2');
  });

  it('writes the upstream latency as a cumulative histogram: each bucket holds those below it', async () => {
    await send(gateway.url, 'GET', '/feeds/ada.json');
    const { text } = await send(gateway.internalUrl, 'GET', '/metrics');
    const buckets = [
      ...text.matchAll(/^gateway_upstream_duration_seconds_bucket\{service="feeds",le="([^"]+)"\} (\d+)$/gm),
    ];
    const count = Number(
      /^gateway_upstream_duration_seconds_count\{service="feeds"\} (\d+)$/m.exec(text)?.[1],
    );
    expect(buckets.map((m) => m[1])).toEqual([
      ...['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5'],
      ...['10', '30', '120', '300', '+Inf'],
    ]);
    const counts = buckets.map((m) => Number(m[2]));
    // Never fewer below a larger bound; every request of a local fake service answers within 300 s.
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
    expect(count).toBe(3);
    expect(counts.slice(-2)).toEqual([3, 3]);
  });
});
