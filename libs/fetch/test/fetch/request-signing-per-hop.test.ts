// The `sign` hook (ActivityPub's HTTP Signatures): each hop gets headers made for its own URL, so a
// redirect is signed anew for its target and never carries the first hop's signature.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { safeFetch } from '../../src/fetch/index.js';
import { BASE_URL, LOOPBACK_ALLOWED, SMALL, startServer, type TestServer } from './servers.js';

const seen: Array<{ path: string; signature: string | undefined; date: string | undefined }> = [];
let server: TestServer;

beforeAll(async () => {
  server = await startServer((req, res) => {
    seen.push({ path: req.url ?? '', signature: req.headers.signature as string, date: req.headers.date });
    if (req.url === '/hop') return res.writeHead(302, { location: '/landing' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
afterAll(() => server.close());

describe('sign', () => {
  it('adds the headers it makes for each hop, from that hop’s method and URL', async () => {
    seen.length = 0;
    const hops: string[] = [];
    await safeFetch(`${server.origin}/hop`, {
      ...SMALL,
      allow: LOOPBACK_ALLOWED,
      baseUrl: BASE_URL,
      headers: { signature: 'from-the-caller' },
      sign: ({ method, url }) => {
        hops.push(`${method} ${url.pathname}`);
        return { signature: `signed ${method} ${url.pathname}`, date: 'Thu, 01 Jan 2026 00:00:00 GMT' };
      },
    });
    expect(hops).toEqual(['GET /hop', 'GET /landing']);
    expect(seen).toEqual([
      { path: '/hop', signature: 'signed GET /hop', date: 'Thu, 01 Jan 2026 00:00:00 GMT' },
      { path: '/landing', signature: 'signed GET /landing', date: 'Thu, 01 Jan 2026 00:00:00 GMT' },
    ]);
  });

  it('without it, a signature header the caller gives is not sent', async () => {
    seen.length = 0;
    await safeFetch(`${server.origin}/landing`, {
      ...SMALL,
      allow: LOOPBACK_ALLOWED,
      baseUrl: BASE_URL,
      headers: { signature: 'from-the-caller' },
    });
    expect(seen).toEqual([{ path: '/landing', signature: undefined, date: undefined }]);
  });
});
