// The one route table of the gateway: which service answers a public path, and with which limits.
// Order matters: the first entry whose pattern and methods match wins, so specific entries come
// before the area catch-alls (DESIGN.md §3 routing note: `/feeds/…` is shared by reader and feeds).
//
// Pattern syntax: literal text; `{int}` one segment of decimal digits; `{name}` (any other word in
// braces) one non-empty segment, possibly with literal text around it in the same segment
// (`{username}.json`); a trailing `/*` matches the path before it and everything below it.
import {
  DEFAULT_BODY_LIMIT,
  type ErrorStyle as PlatformErrorStyle,
  type ServiceName,
} from '@murmur/platform';

export type { ServiceName };
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
/**
 * The area's error convention (formats.md §6) for errors the gateway itself produces. `text` is the
 * one-line `text/plain` reason of POST /webmention and the XML-RPC transport errors; the HTML
 * screens of IndieAuth are never the gateway's to draw, so `html` is not used here.
 */
export type ErrorStyle = Exclude<PlatformErrorStyle, 'html'> | 'text';

export interface RouteEntry {
  pattern: string;
  service: ServiceName;
  /** Absent: every method. */
  methods?: readonly HttpMethod[];
  /** Bytes; absent: the gateway default (security.md §4). */
  bodyLimit?: number;
  /** Upstream timeout; absent: GATEWAY_UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
  /** `public`: `Access-Control-Allow-Origin: *` and preflights answered (security.md §9). */
  cors?: 'public' | 'none';
  /** Preflight `Access-Control-Allow-Headers` for a public route, when it differs from the default. */
  corsAllowHeaders?: string;
  errorStyle: ErrorStyle;
}

export { DEFAULT_BODY_LIMIT };
const KiB = 1024;
const MiB = 1024 * 1024;
const READ: readonly HttpMethod[] = ['GET', 'HEAD'];

export const routeTable: readonly RouteEntry[] = Object.freeze([
  // identity (its home page `/` shows who is signed in; web sign-in lands there)
  { pattern: '/', methods: READ, service: 'identity', errorStyle: 'simple' },
  { pattern: '/account/*', service: 'identity', errorStyle: 'simple' },
  { pattern: '/indieauth/*', service: 'identity', errorStyle: 'oauth' },
  { pattern: '/.well-known/oauth-authorization-server', service: 'identity', errorStyle: 'oauth' },
  { pattern: '/admin/users/*', service: 'identity', errorStyle: 'simple' },
  { pattern: '/admin/apps/*', service: 'identity', errorStyle: 'simple' },
  { pattern: '/admin/tokens/*', service: 'identity', errorStyle: 'simple' },

  // reader: the Feedbin API and the reader's own paths carved out of /feeds
  {
    pattern: '/feeds/v2/imports.json',
    methods: ['POST'],
    service: 'reader',
    bodyLimit: 5 * MiB,
    timeoutMs: 60_000,
    errorStyle: 'feedbin',
  },
  { pattern: '/feeds/v2/*', service: 'reader', errorStyle: 'feedbin' },
  { pattern: '/feeds/highlights', service: 'reader', errorStyle: 'simple' },
  { pattern: '/feeds/{int}/highlights/*', service: 'reader', errorStyle: 'simple' },
  { pattern: '/feeds/recap/*', service: 'reader', errorStyle: 'simple' },

  // feeds: public JSON Feeds (cross-origin readable), private queue feeds, bookmarks, follows
  { pattern: '/feeds/photos.json', methods: READ, service: 'feeds', cors: 'public', errorStyle: 'simple' },
  {
    pattern: '/feeds/{username}.json',
    methods: READ,
    service: 'feeds',
    cors: 'public',
    errorStyle: 'simple',
  },
  {
    pattern: '/feeds/{username}/mentions.json',
    methods: READ,
    service: 'feeds',
    cors: 'public',
    errorStyle: 'simple',
  },
  {
    pattern: '/feeds/{username}/webmentions.json',
    methods: READ,
    service: 'feeds',
    cors: 'public',
    errorStyle: 'simple',
  },
  { pattern: '/feeds/*', service: 'feeds', errorStyle: 'simple' },
  { pattern: '/blogroll.org.json', methods: READ, service: 'feeds', cors: 'public', errorStyle: 'simple' },
  { pattern: '/blogroll.org.json', service: 'feeds', errorStyle: 'simple' },
  { pattern: '/posts/bookmarks/*', service: 'feeds', errorStyle: 'simple' },
  { pattern: '/users/follow', service: 'feeds', errorStyle: 'simple' },
  { pattern: '/users/unfollow', service: 'feeds', errorStyle: 'simple' },
  { pattern: '/users/following/{username}', service: 'feeds', errorStyle: 'simple' },

  // microsub: browser clients call it cross-origin with a Bearer token (no cookies are read)
  {
    pattern: '/microsub',
    service: 'microsub',
    cors: 'public',
    corsAllowHeaders: 'Authorization, Content-Type, Cache-Control, Last-Event-ID',
    errorStyle: 'oauth',
  },

  // webmention: conversation widgets read cross-origin; senders get text/plain reasons
  { pattern: '/webmention', methods: READ, service: 'webmention', cors: 'public', errorStyle: 'simple' },
  {
    pattern: '/webmention',
    methods: ['POST'],
    service: 'webmention',
    bodyLimit: 16 * KiB,
    errorStyle: 'text',
  },
  { pattern: '/webmention', service: 'webmention', errorStyle: 'simple' },

  // archive: public reads; the import takes a large streamed body
  {
    pattern: '/imported/archive/{int}/import',
    methods: ['POST'],
    service: 'archive',
    bodyLimit: 100 * MiB,
    timeoutMs: 300_000,
    errorStyle: 'simple',
  },
  { pattern: '/imported/archive/{int}/recent.json', ...publicRead('archive') },
  { pattern: '/imported/archive/{int}/search.json', ...publicRead('archive') },
  { pattern: '/imported/archive/{int}/years.json', ...publicRead('archive') },
  { pattern: '/imported/archive/{int}/{int}/{month}.json', ...publicRead('archive') },
  { pattern: '/imported/archive/*', service: 'archive', errorStyle: 'simple' },

  // publishing: XML-RPC carries base64 media (25 MB decoded fits in 36 MiB)
  { pattern: '/xmlrpc', service: 'publishing', bodyLimit: 36 * MiB, timeoutMs: 120_000, errorStyle: 'text' },
  { pattern: '/media/*', service: 'publishing', errorStyle: 'simple' },
  { pattern: '/sites/{username}/feed.json', ...publicRead('publishing') },
  { pattern: '/sites/*', service: 'publishing', errorStyle: 'simple' },
  { pattern: '/admin/sites/*', service: 'publishing', errorStyle: 'simple' },

  // push
  { pattern: '/users/push/*', service: 'push', errorStyle: 'simple' },

  // Last, so every named prefix above wins: the page behind a user's IndieAuth `me` (identity.md).
  { pattern: '/{username}/', methods: READ, service: 'identity', errorStyle: 'simple' },
] satisfies RouteEntry[]);

/** Every request for a site's own host name (GATEWAY_SITE_HOSTS) goes to publishing, whatever its path. */
export const SITE_HOST_ROUTE: RouteEntry = Object.freeze({
  pattern: '/*',
  service: 'publishing',
  errorStyle: 'simple',
});

function publicRead(service: ServiceName) {
  return { methods: READ, service, cors: 'public', errorStyle: 'simple' } as const;
}

interface CompiledEntry {
  entry: RouteEntry;
  regex: RegExp;
  methods: ReadonlySet<string> | null;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Turns a table pattern into an anchored regular expression over the raw request path. */
export function compilePattern(pattern: string): RegExp {
  const prefix = pattern.endsWith('/*');
  const body = prefix ? pattern.slice(0, -2) : pattern;
  const source = body
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      if (part === '{int}') return '[0-9]+';
      if (/^\{[a-z_]+\}$/.test(part)) return '[^/]+';
      return escapeRegex(part);
    })
    .join('');
  return new RegExp(`^${source}${prefix ? '(?:/.*)?' : ''}$`);
}

/** `/feeds/v2/x` → `feeds`; patterns starting with a literal segment are indexed by it. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

// Entries grouped by first path segment, each group in table order: a lookup tests only the few
// entries that could match instead of the whole table. Entries whose first segment is a parameter
// (`/{username}/`) come last in the table and are tried after the literal group, in table order.
const byFirstSegment = new Map<string, CompiledEntry[]>();
const parameterFirst: CompiledEntry[] = [];
for (const entry of routeTable) {
  const key = firstSegment(entry.pattern);
  const compiled = {
    entry,
    regex: compilePattern(entry.pattern),
    methods: entry.methods ? new Set(entry.methods) : null,
  };
  if (key.startsWith('{')) {
    parameterFirst.push(compiled);
    continue;
  }
  if (parameterFirst.length > 0) throw new Error(`route ${entry.pattern} must come before /{param} routes`);
  const group = byFirstSegment.get(key) ?? [];
  group.push(compiled);
  byFirstSegment.set(key, group);
}

function firstMatch(group: readonly CompiledEntry[], method: string, pathname: string): RouteEntry | null {
  for (const c of group) {
    if (c.methods && !c.methods.has(method)) continue;
    if (c.regex.test(pathname)) return c.entry;
  }
  return null;
}

/** The entry that serves `method path` (query string ignored), or null when no service owns the path. */
export function resolveRoute(method: string, path: string): RouteEntry | null {
  const q = path.indexOf('?');
  const pathname = q === -1 ? path : path.slice(0, q);
  const m = method.toUpperCase();
  const group = byFirstSegment.get(firstSegment(pathname));
  return (group && firstMatch(group, m, pathname)) ?? firstMatch(parameterFirst, m, pathname);
}
