import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('CORS', () => {
  let services: FakeService[];
  let gateway: TestGateway;
  const origin = { origin: 'https://reader.example' };

  beforeAll(async () => {
    services = await startFakeServices();
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it.each([
    ['/feeds/ada.json'],
    ['/feeds/photos.json'],
    ['/feeds/ada/mentions.json'],
    ['/blogroll.org.json'],
    ['/imported/archive/17/recent.json'],
    ['/imported/archive/17/2019/4.json'],
    ['/webmention?target=https%3A%2F%2Fa.example%2F'],
    ['/microsub?action=channels'],
  ])('a public read %s carries Access-Control-Allow-Origin: *', async (path) => {
    const res = await send(gateway.url, 'GET', path, { headers: origin });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it.each([
    ['GET', '/feeds/v2/entries.json'],
    ['GET', '/feeds/highlights'],
    ['GET', '/feeds/ada/bookmarks/tok.json'],
    ['POST', '/account/verify'],
    ['GET', '/indieauth/token'],
    ['GET', '/users/push/info'],
    ['POST', '/webmention'],
    ['POST', '/xmlrpc'],
  ] as const)('%s %s carries no CORS header, even when the service sends one', async (method, path) => {
    const res = await send(gateway.url, method, path, { headers: { ...origin, 'x-test-send-cors': '1' } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers the /microsub preflight with Authorization allowed', async () => {
    const res = await send(gateway.url, 'OPTIONS', '/microsub', {
      headers: {
        ...origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Cache-Control, Last-Event-ID',
    );
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers the preflight of a public feed for GET only', async () => {
    const res = await send(gateway.url, 'OPTIONS', '/feeds/ada.json', {
      headers: {
        ...origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toMatch(/If-None-Match/);
  });

  it('gives no preflight approval to a reader endpoint or to POST /webmention', async () => {
    for (const [path, method] of [
      ['/feeds/v2/entries.json', 'GET'],
      ['/webmention', 'POST'],
    ]) {
      const res = await send(gateway.url, 'OPTIONS', path!, {
        headers: { ...origin, 'access-control-request-method': method! },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    }
  });
});
