// What a row of the gateway's route tables says, and how rows become entries: which methods, which path
// pattern, which service answers, and what the gateway applies on the way (error style, body limit,
// upstream timeout, cross-origin access). The tables themselves: routes.generated.ts (the endpoints,
// from the services' routes) and route-areas.ts (the error style of paths no endpoint has).
//
// Row: [methods, pattern, service, options?]. Methods are space-separated (`GET POST`), `*` for any;
// a GET row answers HEAD too. Pattern syntax is described in route-matcher.ts: `{name}` one segment,
// `{name:int}` digits only, a trailing `/*` everything below.
import { type ServiceName } from '@murmur/core';
import { type ErrorStyle as PlatformErrorStyle } from '@murmur/http';

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
