import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { FETCH_LIMITS, FetchTimeoutError, FetchTooLargeError, safeFetch } from '../../src/fetch/index.js';
import { BASE_URL, LOOPBACK_ALLOWED, SMALL, startServer, type TestServer } from './servers.js';

const CAP = 64 * 1024;
const zeros = Buffer.alloc(16 * 1024 * 1024);
// 16 MiB of zeros squeezed into a few KiB per coding: a small "decompression bomb".
const bombs: Record<string, Buffer> = {
  gzip: zlib.gzipSync(zeros),
  deflate: zlib.deflateSync(zeros),
  br: zlib.brotliCompressSync(zeros, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
};

let server: TestServer;
let closedEarly: string[];

/** Writes `chunk` forever (until the client goes away). */
function endless(chunk: Buffer): Readable {
  return new Readable({
    read() {
      this.push(chunk);
    },
  });
}

beforeAll(async () => {
  closedEarly = [];
  server = await startServer((req, res) => {
    const path = req.url ?? '/';
    res.on('close', () => {
      if (!res.writableFinished) closedEarly.push(path);
    });
    if (path === '/exact') return res.end(Buffer.alloc(CAP, 'a'));
    if (path === '/one-over') return res.end(Buffer.alloc(CAP + 1, 'a'));
    if (path === '/endless') return endless(Buffer.alloc(16 * 1024, 'a')).pipe(res);
    if (path === '/declared-large') {
      res.writeHead(200, { 'content-length': String(CAP * 10) });
      return res.write('a');
    }
    const bomb = /^\/bomb\/(\w+)$/.exec(path);
    if (bomb) {
      res.writeHead(200, { 'content-encoding': bomb[1]! });
      return res.end(bombs[bomb[1]!]);
    }
    if (path === '/endless-gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      return endless(Buffer.alloc(64 * 1024))
        .pipe(zlib.createGzip())
        .pipe(res);
    }
    if (path === '/silent') return; // accepts the request and never answers
    if (path === '/trickle') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(404).end();
  });
});
afterAll(() => server.close());

const fetchLocal = (path: string, extra: Partial<Parameters<typeof safeFetch>[1]> = {}) =>
  safeFetch(`${server.origin}${path}`, {
    ...SMALL,
    maxBytes: CAP,
    allow: LOOPBACK_ALLOWED,
    baseUrl: BASE_URL,
    ...extra,
  });

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('body cap', () => {
  it('a body of exactly the cap is read whole', async () => {
    expect((await fetchLocal('/exact')).body.length).toBe(CAP);
  });

  it('one byte over the cap fails', async () => {
    await expect(fetchLocal('/one-over')).rejects.toBeInstanceOf(FetchTooLargeError);
  });

  it('an endless body is cut off at the cap and the connection dropped', async () => {
    await expect(fetchLocal('/endless')).rejects.toThrow(`Response body larger than ${CAP} bytes`);
    await waitFor(() => closedEarly.includes('/endless'));
    expect(closedEarly).toContain('/endless');
  });

  it('a declared Content-Length over the cap fails before the body is read', async () => {
    await expect(fetchLocal('/declared-large')).rejects.toBeInstanceOf(FetchTooLargeError);
  });

  it.each(['gzip', 'deflate', 'br'])(
    'a %s bomb is cut off at the cap of its decompressed size',
    async (coding) => {
      expect(bombs[coding]!.length).toBeLessThan(CAP);
      await expect(fetchLocal(`/bomb/${coding}`)).rejects.toBeInstanceOf(FetchTooLargeError);
    },
  );

  it('an endless gzip stream is cut off', async () => {
    await expect(fetchLocal('/endless-gzip')).rejects.toBeInstanceOf(FetchTooLargeError);
    await waitFor(() => closedEarly.includes('/endless-gzip'));
    expect(closedEarly).toContain('/endless-gzip');
  });

  it('with truncate, the first maxBytes are kept (webmention sources)', async () => {
    const res = await fetchLocal('/endless', { truncate: true });
    expect(res.truncated).toBe(true);
    expect(res.body).toEqual(Buffer.alloc(CAP, 'a'));
    const bomb = await fetchLocal('/bomb/gzip', { truncate: true });
    expect(bomb.body).toEqual(Buffer.alloc(CAP));
    expect((await fetchLocal('/exact', { truncate: true })).truncated).toBe(false);
  });
});

describe('time cap', () => {
  it('a server that never answers times out', async () => {
    const started = Date.now();
    await expect(fetchLocal('/silent', { timeoutMs: 300 })).rejects.toBeInstanceOf(FetchTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('the timeout covers the body, not only the headers', async () => {
    const err = await fetchLocal('/trickle', { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect((err as FetchTimeoutError).message).toBe('Outbound request timed out after 300 ms');
    expect((err as FetchTimeoutError).url).toBe(`${server.origin}/trickle`);
  });
});

describe('FETCH_LIMITS', () => {
  it('matches the table of docs/security.md, outbound fetches', () => {
    const KiB = 1024;
    const MiB = 1024 * KiB;
    expect(FETCH_LIMITS).toEqual({
      feed: { timeoutMs: 20_000, maxBytes: 15 * MiB, maxRedirects: 5 },
      icon: { timeoutMs: 10_000, maxBytes: MiB, maxRedirects: 5 },
      webmention: {
        timeoutMs: 10_000,
        connectTimeoutMs: 5_000,
        maxBytes: MiB,
        maxRedirects: 10,
        truncate: true,
      },
      clientId: { timeoutMs: 5_000, maxBytes: 512 * KiB, maxRedirects: 5 },
      page: { timeoutMs: 20_000, maxBytes: 5 * MiB, maxRedirects: 5 },
      jwks: { timeoutMs: 5_000, maxBytes: 64 * KiB, maxRedirects: 2 },
      llm: { timeoutMs: 60_000, maxBytes: MiB, maxRedirects: 0 },
    });
    expect(Object.isFrozen(FETCH_LIMITS.feed)).toBe(true);
  });
});
