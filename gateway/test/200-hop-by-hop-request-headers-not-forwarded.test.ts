// Hop-by-hop request headers (RFC 9110 §7.6.1) describe the client's connection to the gateway: the
// service never sees them, nor any header the client's Connection header names, and a request that
// carries them is answered normally (forwarded, some of them made the upstream client fail: 502).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import {
  rawExchange,
  startFakeServices,
  startGateway,
  targetsOf,
  type Echo,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('hop-by-hop request headers', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['reader', 'identity']);
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('Keep-Alive, Upgrade, TE, Trailer, Proxy-* and a header named in Connection never reach the service', async () => {
    // Raw bytes: Node's own client refuses to send some of these headers.
    const body = '{"unread_entries":[1]}';
    const text = await rawExchange(
      gateway.url,
      'POST /feeds/v2/unread_entries.json HTTP/1.1\r\nHost: murmur.test\r\n' +
        'Connection: close, foo, X-Also-Hop\r\nKeep-Alive: timeout=5, max=100\r\n' +
        'Foo: for the gateway only\r\nX-Also-Hop: for the gateway only\r\nTE: trailers\r\n' +
        'Trailer: x-checksum\r\nProxy-Authorization: Basic c2VjcmV0OnNlY3JldA==\r\n' +
        'Proxy-Connection: keep-alive\r\nX-Kept: end to end\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
      10_000,
    );
    const res = {
      statusCode: Number(text.slice(9, 12)),
      json: () => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown,
    };
    expect(res.statusCode).toBe(200);
    const echo = res.json() as Echo;
    expect(echo.service).toBe('reader');
    expect(echo.body).toBe('{"unread_entries":[1]}');
    expect(echo.headers['x-kept']).toBe('end to end');
    for (const name of [
      'keep-alive',
      'foo',
      'x-also-hop',
      'te',
      'trailer',
      'proxy-authorization',
      'proxy-connection',
      'upgrade',
      'expect',
    ]) {
      expect([name, echo.headers[name]]).toEqual([name, undefined]);
    }
  });

  it.each([
    ['Upgrade alone', 'Upgrade: websocket\r\nConnection: close\r\n'],
    [
      'Upgrade with Connection: upgrade',
      'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings, close\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n',
    ],
  ])('%s is answered by the service, not 502, and the service sees no Upgrade', async (_name, headers) => {
    const text = await rawExchange(
      gateway.url,
      `GET /account/me HTTP/1.1\r\nHost: murmur.test\r\n${headers}\r\n`,
      10_000,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    const echo = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Echo;
    expect(echo.service).toBe('identity');
    expect(echo.headers.upgrade).toBeUndefined();
    expect(echo.headers['http2-settings']).toBeUndefined();
  });

  it('a client cannot use Connection to remove the headers the gateway adds', async () => {
    const res = await sendOverWire(gateway.url, {
      url: '/account/me',
      headers: { connection: 'x-request-id, x-forwarded-for, x-forwarded-host', 'x-request-id': 'given-1' },
    });
    expect(res.statusCode).toBe(200);
    const echo = res.json() as Echo;
    expect(echo.headers['x-request-id']).toBe('given-1');
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(echo.headers['x-forwarded-host']).toBe('localhost:8080');
  });
});
