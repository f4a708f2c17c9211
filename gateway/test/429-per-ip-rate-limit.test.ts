import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('the per-IP rate limit', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['reader', 'feeds', 'microsub']);
    gateway = await startGateway(targetsOf(services), { GATEWAY_RATE_LIMIT_PER_MINUTE: '3' });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('answers 429 with Retry-After in the area’s shape once the allowance is spent', async () => {
    for (let i = 0; i < 3; i++) expect((await send(gateway.url, 'GET', '/feeds/ada.json')).status).toBe(200);

    const feeds = await send(gateway.url, 'GET', '/feeds/ada.json');
    expect(feeds.status).toBe(429);
    expect(Number(feeds.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(feeds.json()).toEqual({ error: expect.any(String) });

    const reader = await send(gateway.url, 'GET', '/feeds/v2/entries.json');
    expect(reader.status).toBe(429);
    expect(reader.json()).toMatchObject({ status: 429, errors: [] });

    const microsub = await send(gateway.url, 'GET', '/microsub?action=channels');
    expect(microsub.status).toBe(429);
    expect(microsub.json()).toMatchObject({ error: 'rate_limited' });
    expect(microsub.headers['retry-after']).toBeDefined();
  });

  it('never limits the health endpoints', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await send(gateway.url, 'GET', '/healthz')).status).toBe(200);
      expect((await send(gateway.internalUrl, 'GET', '/metrics')).status).toBe(200);
      expect((await send(gateway.internalUrl, 'GET', '/readyz')).status).toBe(200);
    }
  });
});

describe('GATEWAY_RATE_LIMIT_PER_MINUTE=0', () => {
  it('turns the limit off', async () => {
    const services = await startFakeServices(['feeds']);
    const gateway = await startGateway(targetsOf(services), { GATEWAY_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 20; i++)
        expect((await send(gateway.url, 'GET', '/feeds/ada.json')).status).toBe(200);
    } finally {
      await gateway.close();
      await Promise.all(services.map((s) => s.close()));
    }
  });
});
