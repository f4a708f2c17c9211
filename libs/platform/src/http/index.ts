export {
  createHttpApp,
  busHeaders,
  sendError,
  DEFAULT_BODY_LIMIT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_HEADER_SIZE,
  type HttpApp,
  type HttpAppOptions,
} from './app.js';
export {
  defineRoute,
  type AuthMode,
  type RouteContext,
  type RouteRateLimit,
  type RouteSpec,
  type ResponseSchemas,
} from './route.js';
export {
  renderError,
  errorStatusText,
  toAppError,
  escapeHtml,
  InsufficientScopeError,
  HTML_PAGE_CSP,
  HTML_PAGE_HEADERS,
  type ErrorStyle,
  type RenderedError,
} from './errors.js';
export {
  zParam,
  paramsFromPairs,
  parseUrlEncoded,
  mergeParams,
  paramError,
  type ParamRecord,
} from './params.js';
export { parseJsonBody, MAX_JSON_DEPTH } from './body.js';
export { bearerToken, hasScope, TokenVerifier, type AuthInfo, type AuthCacheOptions } from './auth.js';
export { PROBE_PATHS } from './observability.js';
