import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resolveRoute, routeTable } from '../src/index.js';
import { samples, unknownPaths } from './route-samples.js';
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
  });

  it('uses each area’s error convention', () => {
    expect(resolveRoute('GET', '/feeds/v2/entries.json')?.errorStyle).toBe('feedbin');
    expect(resolveRoute('POST', '/indieauth/token')?.errorStyle).toBe('oauth');
    expect(resolveRoute('GET', '/microsub')?.errorStyle).toBe('oauth');
    expect(resolveRoute('GET', '/feeds/ada.json')?.errorStyle).toBe('simple');
    expect(resolveRoute('POST', '/webmention')?.errorStyle).toBe('text');
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
