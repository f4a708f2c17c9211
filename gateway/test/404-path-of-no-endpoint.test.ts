// Only real endpoints reach a service: a path, parameter format or method that no row of the route
// table serves is answered 404 by the gateway, in the error convention of the area it falls in.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compilePattern, RouteMatcher } from '../src/index.js';
import {
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('a request no endpoint serves', () => {
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

  it('under the Feedbin API gets a Feedbin-shaped 404', async () => {
    for (const path of ['/feeds/v2/nonsense.json', '/feeds/v2/entries/abc.json', '/feeds/v2/']) {
      const res = await send(gateway.url, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ status: 404, message: 'Not Found', errors: [] });
    }
    const wrongMethod = await send(gateway.url, 'PUT', '/feeds/v2/entries.json');
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.json()).toMatchObject({ status: 404, errors: [] });
  });

  it('under IndieAuth and Microsub gets an OAuth-shaped 404', async () => {
    for (const [method, path] of [
      ['GET', '/indieauth/nothing'],
      ['DELETE', '/indieauth/token'],
      ['PUT', '/microsub'],
    ] as const) {
      const res = await send(gateway.url, method, path);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', error_description: 'No such endpoint.' });
    }
  });

  it('elsewhere gets the simple 404, and no service sees the request', async () => {
    // The fake services echo JSON naming themselves; the gateway's 404 does not.
    for (const path of ['/feeds/abc/highlights', '/feeds/ada/highlights', '/posts/bookmarks/1/2']) {
      const res = await send(gateway.url, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ error: 'No such endpoint.' });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
  });
});

describe('a service this deployment does not run', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway({});
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('answers 503 naming it on its real endpoints, and 404 on paths that are no endpoint of it', async () => {
    const feed = await send(gateway.url, 'GET', '/feeds/ada.json');
    expect(feed.status).toBe(503);
    expect(feed.json()).toEqual({ error: 'The feeds service is not running in this deployment.' });

    const push = await send(gateway.url, 'POST', '/users/push/register');
    expect(push.status).toBe(503);
    expect(push.json()).toEqual({ error: 'The push service is not running in this deployment.' });

    for (const path of ['/feeds/ada/nothing.json', '/users/push/other', '/imported/archive/x/years.json']) {
      const res = await send(gateway.url, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ error: 'No such endpoint.' });
    }
  });
});

describe('the route matcher', () => {
  it('picks the most specific pattern whatever the row order', () => {
    const rows = [
      { pattern: '/feeds/{username}.json', methods: ['GET'], name: 'user' },
      { pattern: '/feeds/*', methods: ['*'], name: 'prefix' },
      { pattern: '/feeds/photos.json', methods: ['GET'], name: 'photos' },
      { pattern: '/feeds/{id:int}/highlights', methods: ['GET'], name: 'highlights' },
    ];
    for (const order of [rows, [...rows].reverse()]) {
      const matcher = new RouteMatcher(order);
      expect(matcher.match('GET', '/feeds/photos.json')?.name).toBe('photos');
      expect(matcher.match('GET', '/feeds/ada.json')?.name).toBe('user');
      expect(matcher.match('HEAD', '/feeds/ada.json')?.name).toBe('user');
      expect(matcher.match('GET', '/feeds/12/highlights')?.name).toBe('highlights');
      expect(matcher.match('GET', '/feeds/ab/highlights')?.name).toBe('prefix');
      expect(matcher.match('POST', '/feeds/ada.json')?.name).toBe('prefix');
      expect(matcher.match('GET', '/feedsx')).toBeNull();
    }
  });

  it('answers a path asked again the same way, past its memo of recent paths', () => {
    const matcher = new RouteMatcher([
      { pattern: '/feeds/{username}.json', methods: ['GET'], name: 'user' },
      { pattern: '/feeds/*', methods: ['*'], name: 'prefix' },
    ]);
    const ask = () => [
      matcher.match('GET', '/feeds/ada.json')?.name,
      matcher.match('POST', '/feeds/ada.json')?.name,
      matcher.match('GET', '/nowhere'),
      matcher.match('GET', `/feeds/${'a'.repeat(300)}.json`)?.name,
      // a method outside the remembered ones (a preflight may ask about any): answered, not remembered
      matcher.match('PROPFIND', '/feeds/ada.json')?.name,
      matcher.match('get', '/feeds/ada.json')?.name,
    ];
    const first = ask();
    expect(first).toEqual(['user', 'prefix', null, 'user', 'prefix', 'user']);
    expect(ask()).toEqual(first);
    // More distinct paths than the memo keeps: it is emptied and refilled, and the answers stay.
    for (let i = 0; i < 3000; i++) expect(matcher.match('GET', `/feeds/u${i}.json`)?.name).toBe('user');
    expect(ask()).toEqual(first);
  });

  it('refuses a malformed pattern when the table is built', () => {
    expect(() => compilePattern('/feeds/{Bad}.json')).toThrow(/malformed/);
    expect(() => compilePattern('/feeds/*/x')).toThrow(/malformed/);
    expect(() => compilePattern('feeds')).toThrow(/must start with/);
    expect(compilePattern('/a/{n:int}/*').test('/a/12/b/c')).toBe(true);
    expect(compilePattern('/a/{n:int}/*').test('/a/x/b')).toBe(false);
  });
});
