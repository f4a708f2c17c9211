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

describe('headers the gateway adds', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['feeds', 'identity']);
    gateway = await startGateway(targetsOf(services), { PUBLIC_URL: 'https://svc.example' });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('generates a request id when there is none and sends the same one both ways', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/ada.json');
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json<Echo>().headers['x-request-id']).toBe(id);
  });

  it('keeps a well-formed request id from the client', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/ada.json', {
      headers: { 'x-request-id': 'abc.DEF_1:2-3' },
    });
    expect(res.headers['x-request-id']).toBe('abc.DEF_1:2-3');
    expect(res.json<Echo>().headers['x-request-id']).toBe('abc.DEF_1:2-3');
  });

  it.each([['a b'], ['x'.repeat(129)], ['<script>'], ['ok,ok']])(
    'replaces a malformed request id %#',
    async (bad) => {
      const res = await send(gateway.url, 'GET', '/feeds/ada.json', { headers: { 'x-request-id': bad } });
      const id = res.headers['x-request-id'];
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json<Echo>().headers['x-request-id']).toBe(id);
    },
  );

  it('puts the request id on the gateway’s own errors', async () => {
    const res = await send(gateway.url, 'GET', '/nowhere', { headers: { 'x-request-id': 'req-404' } });
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe('req-404');
  });

  it('sets X-Forwarded-For, -Proto and -Host for the service', async () => {
    const echo = (await send(gateway.url, 'GET', '/account/me')).json<Echo>();
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(echo.headers['x-forwarded-proto']).toBe('http');
    expect(echo.headers['x-forwarded-host']).toBe('svc.example');
  });

  it('believes a client’s X-Forwarded-For only from a trusted proxy', async () => {
    const forged = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' };
    // The default trusts loopback, and this test client is on loopback: it is the trusted proxy here.
    const trusted = (await send(gateway.url, 'GET', '/account/me', { headers: forged })).json<Echo>();
    expect(trusted.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    expect(trusted.headers['x-forwarded-proto']).toBe('https');

    const direct = await startGateway(targetsOf(services), { TRUST_PROXY: 'false' });
    try {
      const echo = (await send(direct.url, 'GET', '/account/me', { headers: forged })).json<Echo>();
      expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(echo.headers['x-forwarded-proto']).toBe('http');
    } finally {
      await direct.close();
    }
  });

  it('a forged Host or X-Forwarded-Host changes nothing the gateway generates', async () => {
    const honest = await send(gateway.url, 'GET', '/account/me');
    const forged = await send(gateway.url, 'GET', '/account/me', {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', forwarded: 'host=evil.example' },
    });
    const echo = forged.json<Echo>();
    expect(echo.headers['x-forwarded-host']).toBe('svc.example');
    expect(echo.headers.forwarded).toBeUndefined();
    expect(echo.headers.host).toBe(honest.json<Echo>().headers.host);
    expect(JSON.stringify(forged.headers)).not.toContain('evil.example');

    const missing = await send(gateway.url, 'GET', '/nowhere', { headers: { host: 'evil.example' } });
    expect(missing.text).not.toContain('evil.example');
    expect(JSON.stringify(missing.headers)).not.toContain('evil.example');
  });

  it('sends Strict-Transport-Security when the public URL is https', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/ada.json');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await send(gateway.url, 'GET', '/nowhere')).headers['strict-transport-security']).toBe(
      'max-age=31536000',
    );
  });

  it('sends no Strict-Transport-Security over a plain-http public URL', async () => {
    const plain = await startGateway(targetsOf(services), { PUBLIC_URL: 'http://localhost:8080' });
    try {
      const res = await send(plain.url, 'GET', '/feeds/ada.json');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('does not pass on the headers of the service’s own connection', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/ada.json', { headers: { 'x-test-hop-headers': '1' } });
    expect(res.status).toBe(200);
    expect(res.headers['keep-alive']).not.toBe('timeout=5');
    expect(res.headers['x-hop']).toBeUndefined();
  });

  it('drops them whatever the case of their names, and a CORS header on a route without CORS', async () => {
    // /account/me is not a public route: no CORS there, whoever sends it.
    const res = await send(gateway.url, 'GET', '/account/me', { headers: { 'x-test-raw-hop-headers': '1' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('raw head');
    expect(res.headers['x-hop']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['content-type']).toBe('text/plain');
  });
});
