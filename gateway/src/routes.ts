// The gateway's route table: one row per public endpoint — which methods, which path pattern, which
// service answers it, and what the gateway applies on the way (error style, body limit, upstream
// timeout, cross-origin access). A request matching no row is answered 404 by the gateway itself, so
// only real endpoints reach a service. The rows are generated from the routes the services register
// (routes.generated.ts, made by route-table-generator.ts): a service's new route is a row once the
// file is regenerated, which `npm run build` does. The matcher (route-matcher.ts) picks the most
// specific pattern, so order between rows does not matter (`/feeds/…` is shared by reader and feeds:
// `/feeds/v2/…`, `/feeds/highlights`, `/feeds/{integer}/highlights…` and `/feeds/recap…` are the
// reader's; the rest are the feeds service's).
import { DEFAULT_BODY_LIMIT } from '@murmur/http';
import { areaErrorStyleOf } from './route-areas.js';
import { defineRouteTable, type ErrorStyle, type RouteEntry } from './route-entry.js';
import { RouteMatcher } from './route-matcher.js';
import { generatedRouteRows } from './routes.generated.js';

export {
  defineRouteTable,
  type ErrorStyle,
  type HttpMethod,
  type RouteEntry,
  type RouteOptions,
  type RouteRow,
  type ServiceName,
} from './route-entry.js';
export { DEFAULT_BODY_LIMIT };

export const routeTable: readonly RouteEntry[] = defineRouteTable(
  { errorStyle: 'simple' },
  generatedRouteRows,
);

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

function pathOf(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/** The entry that serves `method path` (query string ignored), or null when no endpoint has that path. */
export function resolveRoute(method: string, path: string): RouteEntry | null {
  return matcher.match(method, pathOf(path));
}

/** The error style in which the gateway answers a request that no entry serves (route-areas.ts). */
export function areaErrorStyle(path: string): ErrorStyle {
  return areaErrorStyleOf(pathOf(path));
}
