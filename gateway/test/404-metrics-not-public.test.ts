// /metrics and the aggregate /readyz are served on the internal port only: from the public port they
// would leak what the deployment runs and let anyone make the gateway probe every service. /healthz
// stays on both (load balancers probe the public port).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@murmur/core';
import { gatewayConfigSchema } from '../src/index.js';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('the internal endpoints', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices();
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it.each(['/metrics', '/readyz', '/metrics?format=prometheus', '/readyz?verbose=1', '/METRICS'])(
    'GET %s on the public port is 404 and reaches no service',
    async (path) => {
      const res = await send(gateway.url, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('gateway_requests_total');
      expect(res.text).not.toContain('"service"');
    },
  );

  it('a service’s own /metrics and /readyz are not reachable through the public port either', async () => {
    for (const path of ['/identity/metrics', '/feeds/v2/metrics', '/feeds/v2/readyz', '/account/readyz']) {
      const res = await send(gateway.url, 'GET', path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).not.toContain('"service"');
    }
  });

  it('are answered on the internal port, with /healthz on both', async () => {
    const metrics = await send(gateway.internalUrl, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE gateway_requests_total counter');
    const ready = await send(gateway.internalUrl, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready' });
    expect((await send(gateway.internalUrl, 'GET', '/healthz')).status).toBe(200);
    expect((await send(gateway.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('the internal port routes nothing to the services', async () => {
    const res = await send(gateway.internalUrl, 'GET', '/feeds/v2/entries.json');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ error: 'No such endpoint.' });
  });

  it('listens on 9090 on loopback unless told otherwise', () => {
    const defaults = loadConfig(gatewayConfigSchema, {});
    expect(defaults.GATEWAY_INTERNAL_PORT).toBe(9090);
    expect(defaults.INTERNAL_HOST).toBe('127.0.0.1');
    const set = loadConfig(gatewayConfigSchema, { GATEWAY_INTERNAL_PORT: '9191', INTERNAL_HOST: '10.0.0.5' });
    expect([set.GATEWAY_INTERNAL_PORT, set.INTERNAL_HOST]).toEqual([9191, '10.0.0.5']);
    expect(() => loadConfig(gatewayConfigSchema, { GATEWAY_INTERNAL_PORT: '70000' })).toThrow(
      /GATEWAY_INTERNAL_PORT/,
    );
  });
});
