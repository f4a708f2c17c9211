// GATEWAY_SITE_HOSTS: a site on its own host name is served by publishing, whatever the path; the
// server's own name, IP addresses and localhost keep the route table. Off by default.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type Echo,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('site host names', () => {
  let services: FakeService[];
  let on: TestGateway;
  let off: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['identity', 'publishing']);
    on = await startGateway(targetsOf(services), {
      PUBLIC_URL: 'https://svc.example',
      GATEWAY_SITE_HOSTS: '1',
    });
    off = await startGateway(targetsOf(services), { PUBLIC_URL: 'https://svc.example' });
  });

  afterAll(async () => {
    await Promise.all([on.close(), off.close()]);
    await Promise.all(services.map((s) => s.close()));
  });

  it('a request for another host name goes to publishing with that host forwarded', async () => {
    for (const path of ['/', '/2026/11/21/hello.html', '/ada/', '/feed.json']) {
      const res = await send(on.url, 'GET', path, { headers: { host: 'ada.example' } });
      expect(res.status).toBe(200);
      const echo = res.json<Echo>();
      expect(echo.service).toBe('publishing');
      expect(echo.url).toBe(path);
      expect(echo.headers['x-forwarded-host']).toBe('ada.example');
    }
  });

  it('a site host name does not reach a service’s /metrics or /readyz', async () => {
    for (const path of ['/metrics', '/readyz', '/Metrics?x=1']) {
      const res = await send(on.url, 'GET', path, { headers: { host: 'ada.example' } });
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.json()).toEqual({ error: 'No such endpoint.' });
    }
  });

  it('the public host name, an IP address and localhost keep the route table', async () => {
    for (const host of ['svc.example', '127.0.0.1', 'localhost:8080']) {
      const res = await send(on.url, 'GET', '/ada/', { headers: { host } });
      const echo = res.json<Echo>();
      expect(echo.service).toBe('identity');
      expect(echo.headers['x-forwarded-host']).toBe('svc.example');
    }
  });

  it('without GATEWAY_SITE_HOSTS another host name changes nothing', async () => {
    const res = await send(off.url, 'GET', '/ada/', { headers: { host: 'ada.example' } });
    const echo = res.json<Echo>();
    expect(echo.service).toBe('identity');
    expect(echo.headers['x-forwarded-host']).toBe('svc.example');
    const unknown = await send(off.url, 'GET', '/2026/11/21/hello.html', {
      headers: { host: 'ada.example' },
    });
    expect(unknown.status).toBe(404);
  });
});
