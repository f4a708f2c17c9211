export { createGateway, type CreateGatewayOptions } from './app.js';
export { gatewayConfigSchema, targetsFromConfig, type GatewayConfig, type Targets } from './config.js';
export {
  routeTable,
  SITE_HOST_ROUTE,
  resolveRoute,
  compilePattern,
  DEFAULT_BODY_LIMIT,
  type RouteEntry,
  type ErrorStyle,
  type HttpMethod,
  type ServiceName,
} from './routes.js';
export { checkReadiness, type ServiceReadiness } from './health.js';
