// Single-process mode: the gateway hands requests to services in its own process without a socket.
// What a client observes must be what it observes through the HTTP proxy, and bodies must stream
// (the archive import takes 100 MiB, XML-RPC 36 MiB: neither may sit whole in memory).
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fastify, { type FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { loadConfig } from '@murmur/core';
import { testLogger } from '@murmur/testing';
import { createGatewayServers, gatewayConfigSchema } from '../src/index.js';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type Echo,
  type FakeService,
  type Response,
  type TestGateway,
} from './helpers.js';

/**
 * `wait()` resolves once `signal()` has been called; it rejects `ms` after it was called without one (a
 * stalled stream). The clock starts at `wait()`, not when the latch is made: latches are made as the file
 * loads, and a suite slowed by the rest of the run once spent the whole allowance before the test
 * that waits had started.
 */
function latch(ms: number, what: string): { wait(): Promise<void>; signal(): void } {
  let signalled = false;
  let wake: (() => void) | null = null;
  return {
    signal() {
      signalled = true;
      wake?.();
    },
    wait() {
      if (signalled) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what} never happened`)), ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

/** What differs between two answers by nature (the date, the hop's own connection), left out of comparisons. */
function comparable(res: Response): { status: number; headers: Record<string, unknown>; body: unknown } {
  const headers = { ...res.headers };
  delete headers.date;
  let body: unknown = res.text;
  try {
    body = JSON.parse(res.text) as unknown;
  } catch {
    // not JSON: compare the text
  }
  const echo = body as Partial<Echo> | null;
  if (echo?.transport) {
    // The hop's own Connection header (undici's keep-alive), and the length of the echo that says so.
    delete echo.headers?.connection;
    delete headers['content-length'];
  }
  return { status: res.status, headers, body };
}

describe.each([
  ['in process, through the fast lane', true, true],
  ['in process, through the gateway’s route', true, false],
  ['over HTTP, through the fast lane', false, true],
])('a request handed on %s is answered as the route’s proxy answers it', (_way, inProcess, fastLane) => {
  let services: FakeService[];
  let proxied: TestGateway;
  let local: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['identity', 'reader', 'feeds', 'archive']);
    const targets = {
      ...targetsOf(services),
      // reachable at a closed port: the proxy's 502; publishing is absent: 503 both ways
      microsub: 'http://127.0.0.1:9',
    };
    const env = { PUBLIC_URL: 'https://svc.example', GATEWAY_UPSTREAM_TIMEOUT_MS: '300' };
    // The reference: the route's @fastify/http-proxy, every request through the gateway's Fastify lifecycle.
    proxied = await startGateway(targets, env, { inProcess: false, fastLane: false });
    local = await startGateway(targets, env, { inProcess, fastLane });
  });

  afterAll(async () => {
    await Promise.all([proxied.close(), local.close()]);
    await Promise.all(services.map((s) => s.close()));
  });

  it(inProcess ? 'reaches the service without a socket' : 'reaches the service over its socket', async () => {
    const viaLocal = (await send(local.url, 'GET', '/account/me')).json<Echo>();
    const viaProxy = (await send(proxied.url, 'GET', '/account/me')).json<Echo>();
    expect(viaLocal.transport).toBe(inProcess ? 'in-process' : 'socket');
    expect(viaProxy.transport).toBe('socket');
  });

  interface Case {
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Sent chunked (no Content-Length), a fresh stream for each gateway. */
    chunks?: Buffer[];
  }
  const cases: Array<[string, 'GET' | 'HEAD' | 'POST', string, Case]> = [
    ['a GET with a query and a request id', 'GET', '/feeds/v2/entries.json?per_page=100&page=2', {}],
    ['a HEAD request: the head alone', 'HEAD', '/account/me', {}],
    [
      'hop-by-hop request headers',
      'GET',
      '/account/me',
      { headers: { 'proxy-authorization': 'Basic eA==', te: 'trailers', 'x-kept': 'end to end' } },
    ],
    [
      'a JSON body with a declared length',
      'POST',
      '/feeds/v2/subscriptions.json',
      { headers: { 'content-type': 'application/json' }, body: '{"feed_url":"https://a.example/"}' },
    ],
    [
      'a chunked body',
      'POST',
      '/feeds/v2/subscriptions.json',
      { headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{"a":'), Buffer.from('1}')] },
    ],
    [
      'a CORS header from a non-public route is dropped',
      'GET',
      '/account/me',
      { headers: { 'x-test-send-cors': '1' } },
    ],
    [
      'hop-by-hop headers from the service are dropped',
      'GET',
      '/account/me',
      { headers: { 'x-test-hop-headers': '1' } },
    ],
    [
      'a client behind another proxy (X-Forwarded-For)',
      'GET',
      '/account/me',
      { headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' } },
    ],
    [
      'a head written whole in mixed case, its Connection naming another header',
      'GET',
      '/account/me',
      { headers: { 'x-test-raw-hop-headers': '1' } },
    ],
    ['a public route with its CORS headers', 'GET', '/feeds/ada.json', {}],
    [
      'a public route whose service sets a CORS header itself',
      'GET',
      '/feeds/ada.json',
      { headers: { 'x-test-send-cors': '1' } },
    ],
    ['a path no row serves: 404', 'GET', '/nowhere/at/all', {}],
    ['an absent service: 503 in the area’s shape', 'GET', '/sites/ada/', {}],
    [
      'a service that answers too late: 504',
      'GET',
      '/account/me',
      { headers: { 'x-test-delay-ms': '3000' } },
    ],
    ['a service that drops the request: 502', 'GET', '/account/me', { headers: { 'x-test-reset': '1' } }],
    ['a body over the route limit: 413', 'POST', '/account/me', { body: Buffer.alloc(300 * 1024, 0x20) }],
    [
      'a chunked body over the route limit: 413',
      'POST',
      '/account/me',
      { chunks: Array.from({ length: 6 }, () => Buffer.alloc(64 * 1024, 0x20)) },
    ],
  ];

  it.each(cases)('%s', async (_what, method, path, given) => {
    const options = () => ({
      headers: { 'x-request-id': 'same-id', ...given.headers },
      body: given.chunks ? Readable.from(given.chunks) : given.body,
    });
    const viaProxy = comparable(await send(proxied.url, method, path, options()));
    const viaLocal = comparable(await send(local.url, method, path, options()));
    if (given.chunks && viaProxy.status === 200) {
      // A chunked body that has arrived whole by the time undici forwards it gets a Content-Length:
      // how the service learns the length depends on timing; the body it gets must not.
      for (const echo of [viaProxy.body, viaLocal.body] as Echo[]) {
        delete echo.headers['content-length'];
        delete echo.headers['transfer-encoding'];
      }
    }
    if (method === 'HEAD') {
      // No body to tell the ways apart by, but its length differs with the echo's transport field.
      expect(viaLocal.body).toBe('');
      expect(viaLocal.headers['content-length']).toMatch(/^\d+$/);
      delete viaLocal.headers['content-length'];
      delete viaProxy.headers['content-length'];
    } else if (viaProxy.status === 200 && typeof viaProxy.body === 'object') {
      // the one field the fake service adds to tell the two apart (in an echo, not a text body)
      expect(viaLocal.body).toMatchObject({ transport: inProcess ? 'in-process' : 'socket' });
      (viaProxy.body as Echo).transport = (viaLocal.body as Echo).transport;
      const echo = viaLocal.body as Echo;
      expect(echo.headers['x-forwarded-host']).toBe('svc.example');
      expect(echo.headers['x-request-id']).toBe('same-id');
      expect(echo.headers['proxy-authorization']).toBeUndefined();
    }
    expect(viaLocal).toEqual(viaProxy);
  });
});

describe.each([
  ['in process', true],
  ['over HTTP, through the fast lane', false],
])('a request handed on %s streams its bodies', (_way, inProcess) => {
  let archive: FastifyInstance;
  let gatewayApp: FastifyInstance;
  let internalApp: FastifyInstance;
  let url: string;
  const state = {
    serviceGotFirstChunk: latch(10_000, 'the service reading the first chunk before the upload ended'),
    clientGotFirstChunk: latch(10_000, 'the client reading the first chunk before the download ended'),
    endlessClosed: latch(10_000, 'the service seeing the client leave'),
    nextUpload: latch(20_000, 'the service reading the first chunk before the second upload ended'),
    /** Bytes the search.json stream has produced. */
    produced: 0,
  };

  beforeAll(async () => {
    archive = fastify();
    archive.removeAllContentTypeParsers();
    archive.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    archive.post('/imported/archive/:site/import', async (req) => {
      // A fresh latch per upload: the same test runs chunked and with a declared length.
      if (req.headers['x-upload'] === 'again') state.serviceGotFirstChunk = state.nextUpload;
      let bytes = 0;
      for await (const chunk of req.body as Readable) {
        if (bytes === 0) state.serviceGotFirstChunk.signal();
        bytes += (chunk as Buffer).length;
      }
      return { bytes };
    });
    archive.get('/imported/archive/:site/recent.json', async (_req, reply) => {
      const body = Readable.from(
        (async function* () {
          yield Buffer.from('first;');
          await state.clientGotFirstChunk.wait();
          yield Buffer.from('second');
        })(),
      );
      return reply.type('text/plain').send(body);
    });
    archive.get('/imported/archive/:site/search.json', async (_req, reply) => {
      const endless = new Readable({
        read: () => {
          state.produced += 16 * 1024;
          endless.push(Buffer.alloc(16 * 1024, 0x61));
        },
      });
      return reply.type('text/plain').send(endless);
    });
    archive.get('/imported/archive/:site/years.json', async (_req, reply) => {
      const endless = new Readable({ read: () => void endless.push(Buffer.alloc(16 * 1024, 0x61)) });
      endless.once('close', () => state.endlessClosed.signal());
      return reply.type('text/plain').send(endless);
    });
    let archiveUrl = 'http://127.0.0.1:9';
    if (inProcess) await archive.ready();
    else archiveUrl = await archive.listen({ port: 0, host: '127.0.0.1' });

    const config = loadConfig(gatewayConfigSchema, { GATEWAY_RATE_LIMIT_PER_MINUTE: '0' });
    const servers = await createGatewayServers({
      config,
      targets: { archive: archiveUrl },
      ...(inProcess ? { inProcess: { archive } } : {}),
      logger: testLogger(),
    });
    gatewayApp = servers.app;
    internalApp = servers.internal;
    url = await gatewayApp.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await Promise.all([gatewayApp.close(), internalApp.close(), archive.close()]);
  });

  // Chunked, the gateway's route counts the body as it passes; with a declared length the fast lane
  // (or the route's hand-off) passes it on as it is.
  it.each([
    ['chunked', false],
    ['with a declared length', true],
  ])(
    'hands the upload on as it arrives (%s): the service reads the first chunk before the client sends the rest',
    async (_how, declared) => {
      const piece = Buffer.alloc(256 * 1024, 0x62);
      const firstChunk = declared ? state.nextUpload : state.serviceGotFirstChunk;
      const body = Readable.from(
        (async function* () {
          yield piece;
          await firstChunk.wait();
          for (let i = 0; i < 15; i++) yield piece;
        })(),
      );
      const headers: Record<string, string> = declared
        ? { 'content-length': String(16 * piece.length), 'x-upload': 'again' }
        : {};
      const res = await request(`${url}/imported/archive/1/import`, { method: 'POST', body, headers });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ bytes: 16 * piece.length });
    },
  );

  it('hands the response on as it is written: the client reads the first chunk before the service ends', async () => {
    const res = await request(`${url}/imported/archive/1/recent.json`);
    expect(res.statusCode).toBe(200);
    let text = '';
    for await (const chunk of res.body) {
      if (text === '') state.clientGotFirstChunk.signal();
      text += (chunk as Buffer).toString();
    }
    expect(text).toBe('first;second');
  });

  it('holds the service back while the client does not read (backpressure)', async () => {
    const client = new Agent();
    const res = await request(`${url}/imported/archive/1/search.json`, { dispatcher: client });
    expect(res.statusCode).toBe(200);
    // The client reads nothing more: socket buffers fill and the service's stream must stop being read.
    // Polled rather than timed, so a loaded machine filling the buffers slowly is not a failure.
    const deadline = Date.now() + 10_000;
    let last = -1;
    let unchangedFor = 0;
    const bound = 64 * 1024 * 1024;
    while (unchangedFor < 3 && Date.now() < deadline && state.produced < bound) {
      await new Promise((r) => setTimeout(r, 100));
      unchangedFor = state.produced === last ? unchangedFor + 1 : 0;
      last = state.produced;
    }
    expect(state.produced).toBeLessThan(bound);
    expect(unchangedFor).toBe(3);
    await client.destroy();
  });

  it('stops the service’s response when the client leaves', async () => {
    const controller = new AbortController();
    // Its own connection, closed at the end (as over HTTP, an aborted download leaves the client's
    // pooled socket to the gateway open until the client closes it).
    const client = new Agent();
    const res = await request(`${url}/imported/archive/1/years.json`, {
      signal: controller.signal,
      dispatcher: client,
    });
    expect(res.statusCode).toBe(200);
    let seen = 0;
    await expect(
      (async () => {
        for await (const chunk of res.body) {
          seen += (chunk as Buffer).length;
          if (seen > 1024 * 1024) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    await state.endlessClosed.wait();
    await client.destroy();
  });
});
