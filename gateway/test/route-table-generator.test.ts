// How the generator turns the routes services register into rows of the route table, on small made-up
// services; test-e2e/test/gateway-routes-every-service-route.test.ts holds the committed table against
// what the real services generate.
import { describe, expect, it } from '@jest/globals';
import type { RegisteredRoute } from '@murmur/http';
import {
  gatewayPattern,
  generateRouteTable,
  renderRouteTable,
  routeRows,
  type ServiceRoutes,
} from '../src/route-table-generator.js';

const route = (method: string, url: string, more: Partial<RegisteredRoute> = {}): RegisteredRoute => ({
  method,
  url,
  errorStyle: 'simple',
  ...more,
});

const rowsOf = (
  services: ServiceRoutes[],
  overlay: Record<string, 'site-hosts-only' | 'every-method'> = {},
) => routeRows(services, overlay);

describe('a Fastify URL as a gateway pattern', () => {
  it.each([
    ['/feeds/v2/entries.json', [], '/feeds/v2/entries.json'],
    ['/feeds/:username.json', [], '/feeds/{username}.json'],
    [
      '/feeds/:entry_id/highlights/:highlight_id',
      ['entry_id', 'highlight_id'],
      '/feeds/{entry_id:int}/highlights/{highlight_id:int}',
    ],
    ['/feeds/v2/extract/:id/:signature.json', ['id'], '/feeds/v2/extract/{id:int}/{signature}.json'],
    [
      '/imported/archive/:site_id/:year/:month.json',
      ['site_id', 'month'],
      '/imported/archive/{site_id:int}/{year}/{month:int}.json',
    ],
    ['/sites/:username/*', [], '/sites/{username}/*'],
    ['/:username/', [], '/{username}/'],
  ])('%s (digits: %j) → %s', (url, digits, pattern) => {
    expect(gatewayPattern(url, digits)).toBe(pattern);
  });

  it.each([
    ['/entries/:id(^\\d+).json', /regular-expression parameter/],
    ['/time/10::30', /escaped colon/],
    ['/files/*/raw', /wildcard/],
    ['/files*', /wildcard/],
    ['/users/:userName', /malformed parameter/],
  ])('%s has none', (url, message) => {
    expect(() => gatewayPattern(url)).toThrow(message);
  });
});

describe('the rows of services’ routes', () => {
  it('groups the methods of a pattern that share options, HEAD going with GET', () => {
    const rows = rowsOf([
      {
        service: 'reader',
        routes: [
          route('GET', '/tags.json'),
          route('HEAD', '/tags.json'),
          route('DELETE', '/tags.json'),
          route('POST', '/tags.json'),
          route('POST', '/imports.json', { bodyLimit: 5 * 1024 * 1024, timeoutMs: 60_000 }),
          route('GET', '/imports.json'),
          route('HEAD', '/imports.json'),
        ],
      },
    ]);
    expect(rows).toEqual([
      ['GET', '/imports.json', 'reader'],
      ['POST', '/imports.json', 'reader', { bodyLimit: 5 * 1024 * 1024, timeoutMs: 60_000 }],
      ['GET POST DELETE', '/tags.json', 'reader'],
    ]);
  });

  it('keeps a HEAD route that has no GET beside it', () => {
    expect(rowsOf([{ service: 'push', routes: [route('HEAD', '/ping')] }])).toEqual([
      ['HEAD', '/ping', 'push'],
    ]);
  });

  it('leaves out OPTIONS (the gateway answers preflights) and the operators’ probes', () => {
    const rows = rowsOf([
      {
        service: 'microsub',
        routes: [
          route('OPTIONS', '/microsub'),
          route('GET', '/microsub'),
          route('GET', '/healthz'),
          route('GET', '/metrics'),
        ],
      },
    ]);
    expect(rows).toEqual([['GET', '/microsub', 'microsub']]);
  });

  it('takes the error style, body and time limits and cross-origin reads from the route', () => {
    const rows = rowsOf([
      {
        service: 'webmention',
        routes: [
          route('POST', '/webmention', { errorStyle: 'text', bodyLimit: 16 * 1024 }),
          route('GET', '/webmention', { crossOrigin: true }),
          route('GET', '/microsub', {
            errorStyle: 'oauth',
            crossOrigin: { allowHeaders: 'Authorization, Content-Type' },
          }),
          // The default limit, said out loud, is no limit of the row's.
          route('PUT', '/blocks/:host', { bodyLimit: 256 * 1024 }),
        ],
      },
    ]);
    expect(rows).toEqual([
      ['PUT', '/blocks/{host}', 'webmention'],
      [
        'GET',
        '/microsub',
        'webmention',
        { errorStyle: 'oauth', public: true, corsAllowHeaders: 'Authorization, Content-Type' },
      ],
      ['GET', '/webmention', 'webmention', { public: true }],
      ['POST', '/webmention', 'webmention', { errorStyle: 'text', bodyLimit: 16 * 1024 }],
    ]);
  });

  it('gives an HTML page the area’s error style, as the gateway draws no pages', () => {
    const rows = rowsOf([
      {
        service: 'identity',
        routes: [
          route('GET', '/indieauth/auth', { errorStyle: 'html' }),
          route('POST', '/indieauth/auth', { errorStyle: 'oauth' }),
          route('GET', '/:username/', { errorStyle: 'html' }),
        ],
      },
    ]);
    expect(rows).toEqual([
      ['GET POST', '/indieauth/auth', 'identity', { errorStyle: 'oauth' }],
      ['GET', '/{username}/', 'identity'],
    ]);
  });

  it('orders rows by service as given, then by pattern', () => {
    const rows = rowsOf([
      { service: 'push', routes: [route('GET', '/users/push/info'), route('GET', '/admin/push/log')] },
      { service: 'feeds', routes: [route('POST', '/users/follow')] },
    ]);
    expect(rows.map(([, pattern, service]) => `${service} ${pattern}`)).toEqual([
      'push /admin/push/log',
      'push /users/push/info',
      'feeds /users/follow',
    ]);
  });

  it('refuses two rows for one method of one path shape', () => {
    expect(() =>
      rowsOf([
        { service: 'feeds', routes: [route('GET', '/feeds/:username.json')] },
        { service: 'reader', routes: [route('GET', '/feeds/:name.json')] },
      ]),
    ).toThrow("GET /feeds/{name}.json would be served by two rows: feeds's and reader's");
    expect(() =>
      rowsOf(
        [
          { service: 'publishing', routes: [route('POST', '/xmlrpc')] },
          { service: 'push', routes: [route('HEAD', '/xmlrpc')] },
        ],
        {
          'publishing POST /xmlrpc': 'every-method',
        },
      ),
    ).toThrow(/HEAD \/xmlrpc would be served by two rows/);
  });

  it('refuses a service the gateway does not know', () => {
    expect(() => rowsOf([{ service: 'mail', routes: [route('GET', '/mail')] }])).toThrow(
      '"mail" is no service the gateway knows',
    );
  });
});

describe('the overlay of the gateway’s own policy', () => {
  const publishing: ServiceRoutes = {
    service: 'publishing',
    routes: [
      route('POST', '/xmlrpc', { errorStyle: 'text', bodyLimit: 36 * 1024 * 1024, timeoutMs: 120_000 }),
      route('GET', '/xmlrpc', { errorStyle: 'text' }),
      route('OPTIONS', '/xmlrpc', { errorStyle: 'text' }),
      route('GET', '/sites/:username/*'),
      route('GET', '/*'),
      route('HEAD', '/*'),
    ],
  };

  it('routes every method of a path to a service that answers them all, with the route’s limits', () => {
    const rows = rowsOf([publishing], {
      'publishing POST /xmlrpc': 'every-method',
      'publishing GET /*': 'site-hosts-only',
    });
    expect(rows).toEqual([
      ['GET', '/sites/{username}/*', 'publishing'],
      ['*', '/xmlrpc', 'publishing', { errorStyle: 'text', bodyLimit: 36 * 1024 * 1024, timeoutMs: 120_000 }],
    ]);
  });

  it('makes no row of a route served only on sites’ own host names', () => {
    const rows = rowsOf([publishing], {
      'publishing POST /xmlrpc': 'every-method',
      'publishing GET /*': 'site-hosts-only',
    });
    expect(rows.map(([, pattern]) => pattern)).not.toContain('/*');
  });

  it('fails when it names a route no service registers', () => {
    expect(() =>
      rowsOf([publishing], {
        'publishing POST /xmlrpc': 'every-method',
        'publishing GET /*': 'site-hosts-only',
        'publishing GET /sites/*': 'site-hosts-only',
      }),
    ).toThrow('gateway/src/route-overlay.ts names routes no service registers: publishing GET /sites/*');
  });
});

describe('the generated file', () => {
  it('writes the rows as a table of RouteRow, with the size units it uses', () => {
    const text = renderRouteTable([
      ['GET', '/feeds/{username}.json', 'feeds', { public: true }],
      [
        'POST',
        '/feeds/v2/imports.json',
        'reader',
        { errorStyle: 'feedbin', bodyLimit: 5 * 1024 * 1024, timeoutMs: 60_000 },
      ],
    ]);
    expect(text).toContain("import type { RouteRow } from './route-entry.js';");
    expect(text).toContain('const MiB = 1024 * 1024;');
    expect(text).not.toContain('const KiB');
    expect(text).toContain('// prettier-ignore\nexport const generatedRouteRows: readonly RouteRow[] = [');
    expect(text).toContain("  // feeds\n  ['GET',  '/feeds/{username}.json', 'feeds', { public: true }],");
    expect(text).toContain(
      "  // reader\n  ['POST', '/feeds/v2/imports.json', 'reader', { errorStyle: 'feedbin', bodyLimit: 5 * MiB, timeoutMs: 60_000 }],",
    );
  });

  it('is what the rows of the services’ routes render to', () => {
    const services = [{ service: 'push', routes: [route('GET', '/users/push/info')] }];
    expect(generateRouteTable(services, {})).toBe(renderRouteTable(rowsOf(services)));
  });
});
