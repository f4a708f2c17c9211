// The one route table of the gateway: one row per public endpoint — which methods, which path pattern,
// which service answers it, and what the gateway applies on the way (error style, body limit, upstream
// timeout, cross-origin access). A request matching no row is answered 404 by the gateway itself, so
// only real endpoints reach a service. Rows are grouped by service; the matcher (route-matcher.ts)
// picks the most specific pattern, so order between groups does not matter (`/feeds/…` is shared by
// reader and feeds: `/feeds/v2/…`, `/feeds/highlights`, `/feeds/{integer}/highlights…` and
// `/feeds/recap…` are the reader's; the rest are the feeds service's).
//
// Row: [methods, pattern, service, options?]. Methods are space-separated (`GET POST`), `*` for any;
// a GET row answers HEAD too. Pattern syntax is described in route-matcher.ts: `{name}` one segment,
// `{name:int}` digits only, a trailing `/*` everything below.
import { type ServiceName } from '@murmur/core';
import { DEFAULT_BODY_LIMIT, type ErrorStyle as PlatformErrorStyle } from '@murmur/http';
import { RouteMatcher } from './route-matcher.js';

export type { ServiceName };
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
/**
 * The area's error convention (docs/architecture.md) for errors the gateway itself produces. `text`
 * is the one-line `text/plain` reason of POST /webmention and the XML-RPC transport errors; the HTML
 * screens of IndieAuth are never the gateway's to draw, so `html` is not used here.
 */
export type ErrorStyle = Exclude<PlatformErrorStyle, 'html'> | 'text';

export interface RouteOptions {
  /** Absent: the table's default. */
  errorStyle?: ErrorStyle;
  /** Bytes; absent: the gateway default (256 KiB). */
  bodyLimit?: number;
  /** Upstream timeout; absent: GATEWAY_UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
  /** `Access-Control-Allow-Origin: *` and preflights answered: only reads that use no cookie. */
  public?: true;
  /** Preflight `Access-Control-Allow-Headers` for a public route, when it differs from the default. */
  corsAllowHeaders?: string;
}

export type RouteRow = readonly [
  methods: string,
  pattern: string,
  service: ServiceName,
  options?: RouteOptions,
];

export interface RouteEntry {
  /** Upper-case methods; `['*']` for any. A GET entry also answers HEAD. */
  methods: readonly (HttpMethod | '*')[];
  pattern: string;
  service: ServiceName;
  errorStyle: ErrorStyle;
  bodyLimit?: number;
  timeoutMs?: number;
  /** `public`: `Access-Control-Allow-Origin: *` and preflights answered. */
  cors?: 'public';
  corsAllowHeaders?: string;
}

export { DEFAULT_BODY_LIMIT };
const KiB = 1024;
const MiB = 1024 * 1024;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', '*']);

/** Expands rows into entries, filling in the table's defaults. */
export function defineRouteTable(
  defaults: { errorStyle: ErrorStyle },
  rows: readonly RouteRow[],
): readonly RouteEntry[] {
  return Object.freeze(
    rows.map(([methods, pattern, service, options = {}]) => {
      const list = methods.split(' ').filter(Boolean);
      const bad = list.find((m) => !METHODS.has(m));
      if (list.length === 0 || bad !== undefined)
        throw new Error(`route ${pattern}: bad methods "${methods}"`);
      const entry: RouteEntry = {
        methods: list as RouteEntry['methods'],
        pattern,
        service,
        errorStyle: options.errorStyle ?? defaults.errorStyle,
      };
      if (options.bodyLimit !== undefined) entry.bodyLimit = options.bodyLimit;
      if (options.timeoutMs !== undefined) entry.timeoutMs = options.timeoutMs;
      if (options.public) entry.cors = 'public';
      if (options.corsAllowHeaders !== undefined) entry.corsAllowHeaders = options.corsAllowHeaders;
      return Object.freeze(entry);
    }),
  );
}

const feedbin = { errorStyle: 'feedbin' } as const;
const oauth = { errorStyle: 'oauth' } as const;
const publicRead = { public: true } as const;

// prettier-ignore
export const routeTable: readonly RouteEntry[] = defineRouteTable({ errorStyle: 'simple' }, [
  // identity: accounts, web sign-in, IndieAuth, OAuth metadata, the operator's admin API
  ['GET',         '/',                                          'identity'],
  ['POST',        '/account/signin',                            'identity'],
  ['GET POST',    '/account/signin/web',                        'identity'],
  ['POST',        '/account/signout',                           'identity'],
  ['POST',        '/account/verify',                            'identity'],
  ['POST',        '/account/apple',                             'identity'],
  ['GET',         '/account/me',                                'identity'],
  ['GET',         '/account/avatar/{file}',                     'identity'],
  ['GET POST',    '/indieauth/auth',                            'identity', oauth],
  ['POST',        '/indieauth/approve',                         'identity', oauth],
  ['POST',        '/indieauth/signin',                          'identity', oauth],
  ['GET POST',    '/indieauth/token',                           'identity', oauth],
  ['POST',        '/indieauth/introspect',                      'identity', oauth],
  ['POST',        '/indieauth/revoke',                          'identity', oauth],
  ['GET',         '/indieauth/screen.css',                      'identity', oauth],
  ['GET',         '/.well-known/oauth-authorization-server',    'identity', oauth],
  ['GET POST',    '/admin/users',                               'identity'],
  ['GET PATCH',   '/admin/users/{id}',                          'identity'],
  ['GET POST',    '/admin/users/{id}/tokens',                   'identity'],
  ['GET POST',    '/admin/apps',                                'identity'],
  ['DELETE',      '/admin/apps/{id}',                           'identity'],
  ['DELETE',      '/admin/tokens/{id}',                         'identity'],
  ['POST',        '/admin/tokens/revoke',                       'identity'],
  // The page behind a user's IndieAuth `me`: least specific of all, every named prefix wins over it.
  ['GET',         '/{username}/',                               'identity'],

  // reader: the Feedbin API v2
  ['GET',         '/feeds/v2/authentication.json',              'reader', feedbin],
  ['GET',         '/feeds/v2/entries.json',                     'reader', feedbin],
  ['GET',         '/feeds/v2/entries/{id:int}.json',            'reader', feedbin],
  ['GET',         '/feeds/v2/feeds/{id:int}/entries.json',      'reader', feedbin],
  ['GET',         '/feeds/v2/icons.json',                       'reader', feedbin],
  ['GET POST DELETE', '/feeds/v2/unread_entries.json',          'reader', feedbin],
  ['POST',        '/feeds/v2/unread_entries/delete.json',       'reader', feedbin],
  ['GET POST DELETE', '/feeds/v2/starred_entries.json',         'reader', feedbin],
  ['POST',        '/feeds/v2/starred_entries/delete.json',      'reader', feedbin],
  ['GET POST',    '/feeds/v2/subscriptions.json',               'reader', feedbin],
  ['GET PATCH DELETE', '/feeds/v2/subscriptions/{id:int}.json', 'reader', feedbin],
  ['POST',        '/feeds/v2/subscriptions/{id:int}/update.json', 'reader', feedbin],
  ['GET',         '/feeds/v2/subscriptions.xml',                'reader', feedbin],
  ['GET POST',    '/feeds/v2/taggings.json',                    'reader', feedbin],
  ['GET DELETE',  '/feeds/v2/taggings/{id:int}.json',           'reader', feedbin],
  ['GET POST DELETE', '/feeds/v2/tags.json',                    'reader', feedbin],
  ['GET',         '/feeds/v2/imports.json',                     'reader', feedbin],
  ['POST',        '/feeds/v2/imports.json',                     'reader', { ...feedbin, bodyLimit: 5 * MiB, timeoutMs: 60_000 }],
  ['GET',         '/feeds/v2/imports/{id:int}.json',            'reader', feedbin],
  // the signed extracted-content address of an entry (the feeds service fetches the page); it stands in
  // for Feedbin's extract service, so its errors are in the simple style
  ['GET',         '/feeds/v2/extract/{entry_id:int}/{signature}', 'reader', { timeoutMs: 45_000 }],
  // reader: highlights and recap, carved out of /feeds
  ['GET',         '/feeds/highlights',                          'reader'],
  ['GET POST',    '/feeds/{entry_id:int}/highlights',           'reader'],
  ['DELETE',      '/feeds/{entry_id:int}/highlights/{highlight_id:int}', 'reader'],
  ['POST',        '/feeds/recap',                               'reader'],
  ['GET POST',    '/feeds/recap/email',                         'reader'],

  // feeds: public JSON Feeds (cross-origin readable), private queue feeds, bookmarks, follows
  ['GET',         '/blogroll.org.json',                         'feeds', publicRead],
  ['GET',         '/feeds/photos.json',                         'feeds', publicRead],
  ['GET',         '/feeds/{username}.json',                     'feeds', publicRead],
  ['GET',         '/feeds/{username}/mentions.json',            'feeds', publicRead],
  ['GET',         '/feeds/{username}/webmentions.json',         'feeds', publicRead],
  ['GET',         '/feeds/{username}/bookmarks/{queue}.json',   'feeds'],
  ['GET',         '/feeds/{username}/readlater/{queue}.json',   'feeds'],
  ['POST',        '/feeds/readlater',                           'feeds'],
  ['GET POST',    '/feeds/readlater/token',                     'feeds'],
  ['POST',        '/feeds/readlater/{id}/archive',              'feeds'],
  ['GET POST',    '/posts/bookmarks',                           'feeds'],
  ['GET',         '/posts/bookmarks/listenlater',               'feeds'],
  ['DELETE',      '/posts/bookmarks/{id}',                      'feeds'],
  ['POST',        '/users/follow',                              'feeds'],
  ['POST',        '/users/unfollow',                            'feeds'],
  ['GET',         '/users/following/{username}',                'feeds'],
  ['PUT DELETE',  '/admin/blogroll/{username}',                 'feeds'],

  // microsub: browser clients call it cross-origin with a Bearer token (no cookies are read)
  ['GET POST',    '/microsub',                                  'microsub', {
    ...oauth, public: true, corsAllowHeaders: 'Authorization, Content-Type, Cache-Control, Last-Event-ID' }],

  // webmention: conversation widgets read cross-origin; senders get text/plain reasons
  ['GET',         '/webmention',                                'webmention', publicRead],
  ['POST',        '/webmention',                                'webmention', { errorStyle: 'text', bodyLimit: 16 * KiB }],
  ['GET',         '/webmention/mine',                           'webmention'],
  ['DELETE',      '/webmention/{id:int}',                       'webmention'],
  ['GET',         '/webmention/blocks',                         'webmention'],
  ['PUT DELETE',  '/webmention/blocks/{host}',                  'webmention'],
  ['GET',         '/admin/webmention/blocks',                   'webmention'],
  ['PUT DELETE',  '/admin/webmention/blocks/{host}',            'webmention'],

  // archive: public reads; the import takes a large streamed body
  ['GET',         '/imported/archive/{site_id:int}/recent.json', 'archive', publicRead],
  ['GET',         '/imported/archive/{site_id:int}/search.json', 'archive', publicRead],
  ['GET',         '/imported/archive/{site_id:int}/years.json',  'archive', publicRead],
  ['GET',         '/imported/archive/{site_id:int}/{year:int}/{month:int}.json', 'archive', publicRead],
  ['POST',        '/imported/archive/{site_id:int}/import',     'archive', { bodyLimit: 100 * MiB, timeoutMs: 300_000 }],
  ['GET',         '/imported/archive/{site_id:int}/import/{id}', 'archive'],

  // publishing: XML-RPC carries base64 media (25 MB decoded fits in 36 MiB); it answers every method
  // itself (405 as an XML-RPC transport error), so its row takes them all.
  ['*',           '/xmlrpc',                                    'publishing', { errorStyle: 'text', bodyLimit: 36 * MiB, timeoutMs: 120_000 }],
  ['GET',         '/media/{site}/{year}/{file}',                'publishing'],
  ['GET',         '/sites/{username}',                          'publishing'],
  ['GET',         '/sites/{username}/feed.json',                'publishing', publicRead],
  ['GET',         '/sites/{username}/*',                        'publishing'],
  ['GET',         '/admin/sites',                               'publishing'],
  ['PATCH',       '/admin/sites/{id}',                          'publishing'],

  // push
  ['GET',         '/users/push/info',                           'push'],
  ['POST',        '/users/push/register',                       'push'],
  ['POST',        '/users/push/unregister',                     'push'],
  ['GET',         '/users/push/web/key',                        'push'],
  ['POST',        '/users/push/web/register',                   'push'],
  ['POST',        '/users/push/web/unregister',                 'push'],
  ['GET',         '/admin/push/apps',                           'push'],
  ['PUT DELETE',  '/admin/push/apps/{name}',                    'push'],
  ['GET',         '/admin/push/log',                            'push'],
]);

/**
 * The error style of a path no row serves, by area: a Feedbin client gets a Feedbin 404, an OAuth
 * client an OAuth one. Every other path gets the default (`simple`).
 */
// prettier-ignore
const areaTable = defineRouteTable({ errorStyle: 'simple' }, [
  ['*', '/feeds/v2/*',                              'reader',   feedbin],
  ['*', '/indieauth/*',                             'identity', oauth],
  ['*', '/.well-known/oauth-authorization-server',  'identity', oauth],
  ['*', '/microsub',                                'microsub', oauth],
]);

/** Every request for a site's own host name (GATEWAY_SITE_HOSTS) goes to publishing, whatever its path. */
export const SITE_HOST_ROUTE: RouteEntry = Object.freeze({
  methods: ['*'] as const,
  pattern: '/*',
  service: 'publishing',
  errorStyle: 'simple',
});

// Paths a service answers for operators only (liveness aside, which load balancers may probe on the
// service directly): on a site's own host name they are not the site's to serve.
const OPERATOR_PATHS = new Set(['/metrics', '/readyz', '/healthz']);

/** The entry for a request on a site's own host name: publishing, except the operator-only paths. */
export function resolveSiteHostRoute(path: string): RouteEntry | null {
  return OPERATOR_PATHS.has(pathOf(path).toLowerCase()) ? null : SITE_HOST_ROUTE;
}

const matcher = new RouteMatcher(routeTable);
const areas = new RouteMatcher(areaTable);

function pathOf(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/** The entry that serves `method path` (query string ignored), or null when no endpoint has that path. */
export function resolveRoute(method: string, path: string): RouteEntry | null {
  return matcher.match(method, pathOf(path));
}

/** The error style in which the gateway answers a request that no entry serves. */
export function areaErrorStyle(path: string): ErrorStyle {
  return areas.match('GET', pathOf(path))?.errorStyle ?? 'simple';
}
