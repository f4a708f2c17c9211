import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FetchBlockedError, FetchRedirectError, safeFetch } from '../../src/fetch/index.js';
import { BASE_URL, LOOPBACK_ALLOWED, SMALL, fakeResolver, startServer, type TestServer } from './servers.js';

let server: TestServer;
let privateServer: TestServer;
let hits: string[];
let redirectTarget = '';

beforeAll(async () => {
  // 127.0.0.2 is loopback too, but not on the allow-list: it stands in for an internal host.
  privateServer = await startServer((_req, res) => res.end('internal'), '127.0.0.2');
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(`${req.method} ${url.pathname}`);
    const hop = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (hop) {
      const left = Number(hop[1]);
      if (left === 0) return res.end('end of chain');
      res.writeHead(302, { location: `/chain/${left - 1}` }).end();
      return;
    }
    if (url.pathname === '/loop') return res.writeHead(301, { location: '/loop' }).end();
    if (url.pathname === '/to') return res.writeHead(302, { location: redirectTarget }).end();
    if (url.pathname === '/status') {
      const status = Number(url.searchParams.get('s'));
      return res.writeHead(status, { location: url.searchParams.get('l') ?? '' }).end();
    }
    if (url.pathname === '/perm1') return res.writeHead(301, { location: '/perm2' }).end();
    if (url.pathname === '/perm2') return res.writeHead(308, { location: '/echo' }).end();
    if (url.pathname === '/temp') return res.writeHead(301, { location: '/chain/1' }).end();
    if (url.pathname === '/not-modified') return res.writeHead(304, { etag: '"v1"' }).end();
    if (url.pathname === '/no-location') return res.writeHead(302).end('moved somewhere');
    if (url.pathname === '/big-redirect')
      return res.writeHead(302, { location: '/chain/0' }).end(Buffer.alloc(4 << 20));
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.end(`${req.method} ${body}`));
  });
});
afterAll(async () => {
  await server.close();
  await privateServer.close();
});
beforeEach(() => {
  hits = [];
});

const fetchLocal = (path: string, extra: Partial<Parameters<typeof safeFetch>[1]> = {}) =>
  safeFetch(`${server.origin}${path}`, { ...SMALL, allow: LOOPBACK_ALLOWED, baseUrl: BASE_URL, ...extra });

describe('redirects are followed by hand and every hop is checked again', () => {
  it('a chain within the cap ends at the last URL and lists every hop', async () => {
    const res = await fetchLocal('/chain/3');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('end of chain');
    expect(res.url).toBe(`${server.origin}/chain/0`);
    expect(res.redirects).toEqual([2, 1, 0].map((n) => `${server.origin}/chain/${n}`));
    expect(res.permanentRedirect).toBe(false);
  });

  it('a chain of exactly maxRedirects hops is followed', async () => {
    expect((await fetchLocal('/chain/5', { maxRedirects: 5 })).status).toBe(200);
  });

  it('a chain longer than the cap fails after cap + 1 requests', async () => {
    await expect(fetchLocal('/chain/6', { maxRedirects: 5 })).rejects.toThrow(FetchRedirectError);
    expect(hits).toHaveLength(6);
    await expect(fetchLocal('/loop', { maxRedirects: 2 })).rejects.toThrow('more than 2 redirects');
  });

  it('a use without redirects (LLM) fails on the first one', async () => {
    await expect(fetchLocal('/chain/1', { maxRedirects: 0 })).rejects.toBeInstanceOf(FetchRedirectError);
    expect(hits).toEqual(['GET /chain/1']);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://[::1]/',
    'ftp://example.com/x',
  ])('a redirect to %s is blocked', async (target) => {
    redirectTarget = target;
    const lookup = fakeResolver({});
    await expect(fetchLocal('/to', { lookup })).rejects.toBeInstanceOf(FetchBlockedError);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('a redirect to a private server is stopped before connecting to it', async () => {
    redirectTarget = `${privateServer.origin}/secret`;
    const err = await fetchLocal('/to').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchBlockedError);
    expect((err as FetchBlockedError).url).toBe(`${privateServer.origin}/secret`);

    redirectTarget = `http://internal.test:${privateServer.port}/secret`;
    const lookup = fakeResolver({ 'internal.test': ['127.0.0.2'] });
    await expect(fetchLocal('/to', { lookup })).rejects.toBeInstanceOf(FetchBlockedError);
    expect(lookup).toHaveBeenCalledWith('internal.test');
    expect(privateServer.connections()).toBe(0);
  });

  it('a Location that is not a URL fails as a redirect error', async () => {
    await expect(fetchLocal(`/status?s=302&l=${encodeURIComponent('http://[oops')}`)).rejects.toBeInstanceOf(
      FetchRedirectError,
    );
  });

  it('301 and 308 hops mark the redirect permanent; a later 302 does not', async () => {
    const res = await fetchLocal('/perm1');
    expect(res.redirects).toEqual([`${server.origin}/perm2`, `${server.origin}/echo`]);
    expect(res.permanentRedirect).toBe(true);
    expect((await fetchLocal('/temp')).permanentRedirect).toBe(false);
  });

  it('a redirect with a large body of its own is still followed', async () => {
    expect((await fetchLocal('/big-redirect')).body.toString()).toBe('end of chain');
  });

  it('3xx responses without Location are returned, not followed', async () => {
    const notModified = await fetchLocal('/not-modified');
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe('"v1"');
    const moved = await fetchLocal('/no-location');
    expect(moved.status).toBe(302);
    expect(moved.body.toString()).toBe('moved somewhere');
  });

  it('303 continues as GET without the body; 307 repeats the POST', async () => {
    const seeOther = await fetchLocal(`/status?s=303&l=/echo`, { method: 'POST', body: 'payload' });
    expect(seeOther.body.toString()).toBe('GET ');
    const temporary = await fetchLocal(`/status?s=307&l=/echo`, { method: 'POST', body: 'payload' });
    expect(temporary.body.toString()).toBe('POST payload');
    expect(hits).toEqual(['POST /status', 'GET /echo', 'POST /status', 'POST /echo']);
  });
});
