import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@murmur/testing';
import { send, startFakeServices, startGateway, targetsOf, type FakeService } from './helpers.js';

describe('/healthz (public and internal) and /readyz (internal)', () => {
  let services: FakeService[];

  beforeAll(async () => {
    services = await startFakeServices(['identity', 'reader']);
  });

  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
  });

  it('/healthz answers while the gateway lives, whatever the services do', async () => {
    const gateway = await startGateway({});
    try {
      for (const base of [gateway.url, gateway.internalUrl]) {
        const res = await send(base, 'GET', '/healthz');
        expect(res.status).toBe(200);
        expect(res.json()).toEqual({ status: 'ok' });
      }
    } finally {
      await gateway.close();
    }
  });

  it('is ready when every configured service is; the others are absent', async () => {
    const gateway = await startGateway(targetsOf(services));
    try {
      const res = await send(gateway.internalUrl, 'GET', '/readyz');
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({
        status: 'ready',
        services: {
          identity: 'ready',
          reader: 'ready',
          feeds: 'absent',
          microsub: 'absent',
          webmention: 'absent',
          archive: 'absent',
          publishing: 'absent',
          push: 'absent',
          federation: 'absent',
          websub: 'absent',
        },
      });
    } finally {
      await gateway.close();
    }
  });

  it('is unready (503) naming the services that are not ready or not reachable', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const gateway = await startGateway({ ...targetsOf(services), push: dead });
    services[1]!.ready = false;
    try {
      const res = await send(gateway.internalUrl, 'GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'unready',
        services: { identity: 'ready', reader: 'unready', push: 'unreachable', feeds: 'absent' },
      });
    } finally {
      services[1]!.ready = true;
      await gateway.close();
    }
  });
});
