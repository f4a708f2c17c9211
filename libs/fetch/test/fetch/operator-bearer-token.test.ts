// The one credential the fetcher ever sends: an operator-configured bearer key (LLM summariser), on
// the first request only, so a redirect can never carry it to another host.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { safeFetch } from '../../src/fetch/index.js';
import { BASE_URL, LOOPBACK_ALLOWED, SMALL, startServer, type TestServer } from './servers.js';

const seen: Array<{ path: string; authorization: string | undefined }> = [];
let server: TestServer;

beforeAll(async () => {
  server = await startServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    if (req.url === '/hop') return res.writeHead(307, { location: '/landing' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
afterAll(() => server.close());

const post = (path: string, extra: Partial<Parameters<typeof safeFetch>[1]> = {}) =>
  safeFetch(`${server.origin}${path}`, {
    ...SMALL,
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json', authorization: 'Bearer from-a-client' },
    allow: LOOPBACK_ALLOWED,
    baseUrl: BASE_URL,
    ...extra,
  });

describe('operatorBearerToken', () => {
  it('is sent as the Authorization header instead of anything the caller put in headers', async () => {
    seen.length = 0;
    await post('/chat', { operatorBearerToken: 'sk-operator' });
    expect(seen).toEqual([{ path: '/chat', authorization: 'Bearer sk-operator' }]);
  });

  it('is not sent after a redirect', async () => {
    seen.length = 0;
    await post('/hop', { operatorBearerToken: 'sk-operator' });
    expect(seen).toEqual([
      { path: '/hop', authorization: 'Bearer sk-operator' },
      { path: '/landing', authorization: undefined },
    ]);
  });

  it('without it no Authorization header is sent at all', async () => {
    seen.length = 0;
    await post('/chat');
    expect(seen).toEqual([{ path: '/chat', authorization: undefined }]);
  });
});
