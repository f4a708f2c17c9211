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
});
