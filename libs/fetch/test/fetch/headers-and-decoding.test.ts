import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { FetchError, safeFetch } from '../../src/fetch/index.js';
import { BASE_URL, LOOPBACK_ALLOWED, SMALL, startServer, type TestServer } from './servers.js';

const TEXT = 'Hello from a compressed feed. '.repeat(200);
const encoded: Record<string, Buffer> = {
  gzip: zlib.gzipSync(TEXT),
  deflate: zlib.deflateSync(TEXT),
  'raw-deflate': zlib.deflateRawSync(TEXT),
  br: zlib.brotliCompressSync(TEXT),
  'deflate, gzip': zlib.gzipSync(zlib.deflateSync(TEXT)),
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/echo') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.setHeader('X-Custom', 'Yes');
        res.end(JSON.stringify({ headers: req.headers, body }));
      });
      return;
    }
    if (url.pathname === '/encoded') {
      const coding = url.searchParams.get('c')!;
      res.writeHead(200, { 'content-encoding': coding === 'raw-deflate' ? 'deflate' : coding });
      return res.end(req.method === 'HEAD' ? undefined : encoded[coding]);
    }
    if (url.pathname === '/not-modified-gzip')
      return res.writeHead(304, { 'content-encoding': 'gzip' }).end();
    if (url.pathname === '/zstd') return res.writeHead(200, { 'content-encoding': 'zstd' }).end('xx');
    res.writeHead(404).end();
  });
});
afterAll(() => server.close());

const fetchLocal = (path: string, extra: Partial<Parameters<typeof safeFetch>[1]> = {}) =>
  safeFetch(`${server.origin}${path}`, { ...SMALL, allow: LOOPBACK_ALLOWED, baseUrl: BASE_URL, ...extra });

describe('outgoing headers', () => {
  it('carry only our User-Agent, the Accept of the use and allowed conditional headers', async () => {
    const res = await fetchLocal('/echo', {
      accept: 'application/feed+json, application/atom+xml',
      headers: {
        Authorization: 'Bearer secret',
        Cookie: 'session=abc',
        'X-Forwarded-For': '10.0.0.1',
        'If-None-Match': '"v1"',
        'If-Modified-Since': 'Sat, 21 Nov 2026 08:30:00 GMT',
      },
    });
    const { headers } = JSON.parse(res.body.toString()) as { headers: Record<string, string> };
    expect(headers.authorization).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
    expect(headers).toEqual({
      host: new URL(server.origin).host,
      connection: 'keep-alive',
      'user-agent': 'Murmur/0.1 (+https://murmur.test)',
      accept: 'application/feed+json, application/atom+xml',
      'accept-encoding': 'gzip, deflate, br',
      'if-none-match': '"v1"',
      'if-modified-since': 'Sat, 21 Nov 2026 08:30:00 GMT',
    });
  });

  it('a POST sends its body and Content-Type, nothing else from the caller', async () => {
    const res = await fetchLocal('/echo', {
      method: 'POST',
      body: '{"q":1}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer llm-key' },
    });
    const echoed = JSON.parse(res.body.toString()) as { headers: Record<string, string>; body: string };
    expect(echoed.body).toBe('{"q":1}');
    expect(echoed.headers['content-type']).toBe('application/json');
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers.accept).toBe('*/*');
  });

  it('a WebSub delivery sends its Link and X-Hub-Signature, and still nothing else', async () => {
    const res = await fetchLocal('/echo', {
      method: 'POST',
      body: '<rss/>',
      headers: {
        'content-type': 'application/rss+xml',
        link: '<https://hub.test/websub>; rel="hub", <https://hub.test/feed.xml>; rel="self"',
        'x-hub-signature': 'sha256=00ff',
        cookie: 'a=1',
      },
    });
    const echoed = JSON.parse(res.body.toString()) as { headers: Record<string, string> };
    expect(echoed.headers.link).toBe(
      '<https://hub.test/websub>; rel="hub", <https://hub.test/feed.xml>; rel="self"',
    );
    expect(echoed.headers['x-hub-signature']).toBe('sha256=00ff');
    expect(echoed.headers.cookie).toBeUndefined();
  });

  it('response headers come back lower-case, repeated ones joined', async () => {
    const res = await fetchLocal('/echo');
    expect(res.headers['x-custom']).toBe('Yes');
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
  });
});

describe('compressed bodies are decoded', () => {
  it.each(Object.keys(encoded))('%s', async (coding) => {
    const res = await fetchLocal(`/encoded?c=${encodeURIComponent(coding)}`);
    expect(res.body.toString()).toBe(TEXT);
  });

  it('an empty compressed 304 and a HEAD give an empty body', async () => {
    expect((await fetchLocal('/not-modified-gzip')).body.length).toBe(0);
    const head = await fetchLocal('/encoded?c=gzip', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('an unknown content-encoding is an error, not garbage', async () => {
    await expect(fetchLocal('/zstd')).rejects.toThrow(new FetchError('unsupported content-encoding "zstd"'));
  });
});
