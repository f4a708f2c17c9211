import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  areaErrorStyle,
  resolveRoute,
  resolveSiteHostRoute,
  routeTable,
  SITE_HOST_ROUTE,
} from '../src/index.js';
import { rowSamples, samples, unknownPaths } from './route-samples.js';
import {
  rawExchange,
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type Echo,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('the route table', () => {
  it.each(samples.map((s) => [`${s.method} ${s.path}`, s] as const))('%s → its service', (_name, s) => {
    expect(resolveRoute(s.method, s.path)?.service).toBe(s.service);
  });

  it.each(unknownPaths.map((u) => [`${u.method} ${u.path}`, u] as const))('%s → no service', (_name, u) => {
    expect(resolveRoute(u.method, u.path)).toBeNull();
  });

  // A row no path reaches (a more specific row taking all of its paths) would be an endpoint lost.
  it.each(rowSamples.map((s) => [`${s.method} ${s.path}`, s] as const))(
    '%s → the row it was made from',
    (_name, s) => {
      expect(resolveRoute(s.method, s.path)?.pattern).toBe(s.pattern);
    },
  );

  it('sends the reader its /feeds paths and the feeds service its own, most specific first', () => {
    expect(resolveRoute('GET', '/feeds/highlights')?.service).toBe('reader');
    expect(resolveRoute('GET', '/feeds/highlights.json')?.service).toBe('feeds');
    expect(resolveRoute('POST', '/feeds/12/highlights')?.service).toBe('reader');
    expect(resolveRoute('GET', '/feeds/v2.json')?.service).toBe('feeds');
    expect(resolveRoute('GET', '/feeds/recapper.json')?.service).toBe('feeds');
    expect(resolveRoute('GET', '/feeds/photos.json')?.pattern).toBe('/feeds/photos.json');
    expect(resolveRoute('GET', '/sites/ada/feed.json')?.cors).toBe('public');
    expect(resolveRoute('GET', '/sites/ada/2026/01/post.html')?.cors).toBeUndefined();
  });

  it('routes a parameter only in its format: highlights need an integer entry id', () => {
    expect(resolveRoute('GET', '/feeds/ada/highlights')).toBeNull();
    expect(resolveRoute('DELETE', '/feeds/12/highlights/x')).toBeNull();
    expect(resolveRoute('GET', '/feeds/v2/entries/abc.json')).toBeNull();
    expect(resolveRoute('GET', '/imported/archive/ada/years.json')).toBeNull();
    expect(resolveRoute('GET', '/imported/archive/17/2019/april.json')).toBeNull();
    expect(resolveRoute('DELETE', '/webmention/abc')).toBeNull();
    expect(resolveRoute('DELETE', '/webmention/5')?.service).toBe('webmention');
    expect(resolveRoute('GET', '/feeds/v2/extract/abc/sig.json')).toBeNull();
    // Ids the services check themselves are routed whatever they look like.
    expect(resolveRoute('DELETE', '/admin/tokens/abc')?.service).toBe('identity');
    expect(resolveRoute('PATCH', '/admin/sites/abc')?.service).toBe('publishing');
    expect(resolveRoute('GET', '/imported/archive/17/import/imp-8')?.service).toBe('archive');
  });

  it('tries a user’s page (/{username}/) after every path with a named first segment', () => {
    expect(resolveRoute('GET', '/ada/')?.pattern).toBe('/{username}/');
    expect(resolveRoute('GET', '/feeds/photos.json')?.service).toBe('feeds');
    expect(resolveRoute('GET', '/ada')).toBeNull();
    expect(resolveRoute('GET', '/ada/posts')).toBeNull();
    expect(resolveRoute('POST', '/ada/')).toBeNull();
  });

  it('routes every method of /xmlrpc to publishing, which answers them itself', () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PROPFIND'])
      expect(resolveRoute(method, '/xmlrpc')).toMatchObject({ service: 'publishing', errorStyle: 'text' });
  });

  it('routes a method only where the endpoint has it (GET rows answer HEAD too)', () => {
    expect(resolveRoute('HEAD', '/feeds/ada.json')?.service).toBe('feeds');
    expect(resolveRoute('PUT', '/feeds/v2/entries.json')).toBeNull();
    expect(resolveRoute('POST', '/feeds/ada.json')).toBeNull();
    // XML-RPC answers every method itself (405 as an XML-RPC transport error).
    expect(resolveRoute('GET', '/xmlrpc')?.service).toBe('publishing');
  });

  it('gives the large body limits only to the upload routes', () => {
    expect(resolveRoute('POST', '/xmlrpc')?.bodyLimit).toBe(36 * 1024 * 1024);
    expect(resolveRoute('POST', '/feeds/v2/imports.json')?.bodyLimit).toBe(5 * 1024 * 1024);
    expect(resolveRoute('GET', '/feeds/v2/imports.json')?.bodyLimit).toBeUndefined();
    expect(resolveRoute('POST', '/webmention')?.bodyLimit).toBe(16 * 1024);
    expect(resolveRoute('POST', '/imported/archive/17/import')?.bodyLimit).toBe(100 * 1024 * 1024);
    expect(resolveRoute('POST', '/feeds/v2/subscriptions.json')?.bodyLimit).toBeUndefined();
    // The push service's own small limits are kept at the gateway too.
    expect(resolveRoute('POST', '/users/push/web/register')?.bodyLimit).toBe(8 * 1024);
    expect(resolveRoute('PUT', '/admin/push/apps/ios')?.bodyLimit).toBe(16 * 1024);
    expect(resolveRoute('DELETE', '/admin/push/apps/ios')?.bodyLimit).toBeUndefined();
  });

  it('gives the slow routes their own upstream timeouts', () => {
    expect(resolveRoute('POST', '/xmlrpc')?.timeoutMs).toBe(120_000);
    expect(resolveRoute('POST', '/feeds/v2/imports.json')?.timeoutMs).toBe(60_000);
    expect(resolveRoute('GET', '/feeds/v2/extract/12/sig.json')?.timeoutMs).toBe(45_000);
    expect(resolveRoute('POST', '/imported/archive/17/import')?.timeoutMs).toBe(300_000);
    expect(routeTable.filter((e) => e.timeoutMs !== undefined)).toHaveLength(4);
  });

  it('uses each area’s error convention', () => {
    expect(resolveRoute('GET', '/feeds/v2/entries.json')?.errorStyle).toBe('feedbin');
    expect(resolveRoute('POST', '/indieauth/token')?.errorStyle).toBe('oauth');
    expect(resolveRoute('GET', '/microsub')?.errorStyle).toBe('oauth');
    expect(resolveRoute('GET', '/feeds/ada.json')?.errorStyle).toBe('simple');
    expect(resolveRoute('POST', '/webmention')?.errorStyle).toBe('text');
    // IndieAuth's HTML screens: the gateway answers its own errors there in OAuth's shape.
    expect(resolveRoute('GET', '/indieauth/auth')?.errorStyle).toBe('oauth');
    expect(resolveRoute('GET', '/ada/')?.errorStyle).toBe('simple');
    // The extracted-content address stands in for Feedbin's extract service, not its API.
    expect(resolveRoute('GET', '/feeds/v2/extract/12/sig.json')?.errorStyle).toBe('simple');
  });

  it('answers a path no row serves in its area’s error convention', () => {
    expect(areaErrorStyle('/feeds/v2/nothing.json?x=1')).toBe('feedbin');
    expect(areaErrorStyle('/indieauth/nothing')).toBe('oauth');
    expect(areaErrorStyle('/.well-known/oauth-authorization-server')).toBe('oauth');
    expect(areaErrorStyle('/microsub')).toBe('oauth');
    expect(areaErrorStyle('/feeds/ada/nothing.json')).toBe('simple');
    expect(areaErrorStyle('/wp-login.php')).toBe('simple');
  });

  it('sends a site’s own host name to publishing by Host, never by a row of the table', () => {
    expect(resolveSiteHostRoute('/2026/11/hello.html?x=1')).toBe(SITE_HOST_ROUTE);
    expect(SITE_HOST_ROUTE).toMatchObject({ service: 'publishing', pattern: '/*', methods: ['*'] });
    expect(resolveSiteHostRoute('/metrics')).toBeNull();
    expect(routeTable.some((e) => e.pattern === '/*')).toBe(false);
  });

  it('allows cross-origin reads only where docs/security.md allows them', () => {
    const publicPaths = routeTable.filter((e) => e.cors === 'public').map((e) => e.pattern);
    expect(new Set(publicPaths)).toEqual(
      new Set([
        '/feeds/photos.json',
        '/feeds/{username}.json',
        '/feeds/{username}/mentions.json',
        '/feeds/{username}/webmentions.json',
        '/blogroll.org.json',
        '/microsub',
        '/webmention',
        '/imported/archive/{site_id:int}/recent.json',
        '/imported/archive/{site_id:int}/search.json',
        '/imported/archive/{site_id:int}/years.json',
        '/imported/archive/{site_id:int}/{year:int}/{month:int}.json',
        // A site's own JSON Feed is a public JSON Feed too (docs/security.md: public JSON Feeds are readable cross-origin).
        '/sites/{username}/feed.json',
        // Discovery of the fediverse: WebFinger and NodeInfo are read from browsers too (docs/security.md).
        '/.well-known/webfinger',
        '/.well-known/nodeinfo',
        '/nodeinfo/2.1',
      ]),
    );
    expect(resolveRoute('POST', '/webmention')?.cors).toBeUndefined();
    expect(resolveRoute('GET', '/feeds/ada/bookmarks/tok.json')?.cors).toBeUndefined();
  });
});

describe('a request through the gateway', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices();
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it.each(samples.map((s) => [`${s.method} ${s.path}`, s] as const))(
    '%s reaches %s with method, path, query, headers and body intact',
    async (_name, s) => {
      const headers: Record<string, string> = { 'x-custom': 'kept', authorization: 'Bearer t0k' };
      if (s.contentType) headers['content-type'] = s.contentType;
      const res = await send(gateway.url, s.method, s.path, { headers, body: s.body });
      expect(res.status).toBe(200);
      if (s.method === 'HEAD') return;
      const echo = res.json<Echo>();
      expect(echo.service).toBe(s.service);
      expect(echo.method).toBe(s.method);
      expect(echo.url).toBe(s.path);
      expect(echo.headers['x-custom']).toBe('kept');
      expect(echo.headers.authorization).toBe('Bearer t0k');
      expect(echo.body).toBe(s.body ?? '');
      if (s.contentType) expect(echo.headers['content-type']).toBe(s.contentType);
    },
  );

  it.each(rowSamples.map((s) => [`${s.method} ${s.path}`, s] as const))(
    '%s (made from its row) reaches its service',
    async (_name, s) => {
      const res = await send(gateway.url, s.method, s.path, { headers: { authorization: 'Bearer t0k' } });
      expect(res.status).toBe(200);
      if (s.method !== 'HEAD') expect(res.json<Echo>().service).toBe(s.service);
    },
  );

  it.each([
    ['/feeds/v2/../../admin/users'],
    ['/feeds/v2/%2e%2e/%2e%2e/admin/users'],
    ['/account/..%2Fadmin'],
    ['/sites/ada/../../admin/users'],
    ['/sites/ada/%2E%2E%5C..%5Cadmin'],
  ])('a path climbing out of its area (%s) is refused with 400 and reaches no service', async (path) => {
    const res = await rawExchange(
      gateway.url,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(res).toMatch(/^HTTP\/1\.1 400 /);
    expect(res).not.toContain('"service"');
  });

  it('a path with a malformed percent-escape is refused with 400 naming the problem', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/%E0%A4%A.json');
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringMatching(/malformed/i) });
  });

  it.each(unknownPaths.map((u) => [`${u.method} ${u.path}`, u] as const))(
    '%s is answered 404 by the gateway',
    async (_name, u) => {
      const res = await send(gateway.url, u.method, u.path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: 'No such endpoint.' });
    },
  );
});
