export {
  createGateway,
  createGatewayServers,
  createInternalServer,
  type CreateGatewayOptions,
  type GatewayServers,
} from './app.js';
export type { InProcessServices } from './in-process.js';
export { GatewayMetrics } from './metrics.js';
export { RouteMatcher, compilePattern, type MatcherRow } from './route-matcher.js';
export { gatewayConfigSchema, targetsFromConfig, type GatewayConfig, type Targets } from './config.js';
export {
  routeTable,
  SITE_HOST_ROUTE,
  resolveSiteHostRoute,
  resolveRoute,
  areaErrorStyle,
  defineRouteTable,
  DEFAULT_BODY_LIMIT,
  type RouteOptions,
  type RouteRow,
  type RouteEntry,
  type ErrorStyle,
  type HttpMethod,
  type ServiceName,
} from './routes.js';
export { checkReadiness, type ServiceReadiness } from './health.js';
