export {
  createHttpApp,
  authenticatorOf,
  registeredRoutes,
  busHeaders,
  isValidRequestId,
  sendError,
  DEFAULT_BODY_LIMIT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_HEADER_SIZE,
  type HttpApp,
  type HttpAppOptions,
  type CrossOrigin,
  type RegisteredRoute,
} from './app.js';
export { RequestMetrics, DURATION_BUCKETS } from './request-metrics.js';
export {
  defineRoute,
  requireAuth,
  authOf,
  type RequireAuthOptions,
  type KeyedRateLimit,
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
  busFailure,
  BUS_RETRY_AFTER_SECONDS,
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
  isRepeatedParam,
  lastValue,
  parseUrlEncoded,
  mergeParams,
  paramError,
  MAX_PARAMS,
  type ParamRecord,
} from './params.js';
export { carriesAdminToken, requireAdminToken } from './admin.js';
export { parseJsonBody, mediaType, MAX_JSON_DEPTH, XML_MEDIA_TYPES } from './body.js';
export {
  bearerToken,
  basicCredentials,
  bearerChallenge,
  hasScope,
  requireScope,
  requireScopes,
  missingToken,
  invalidToken,
  invalidCredentials,
  VerificationCache,
  type AuthInfo,
  type AuthCacheOptions,
  type BasicCredentials,
} from './auth.js';
export { PROBE_PATHS } from './observability.js';
export { answerUnreadableRequest } from './client-error.js';
export { closeConnectionsAfter, connectionGraceMs, refuseWhileStopping } from './shutdown.js';
export {
  HandOffResponse,
  handOffResponseClass,
  markHandedOver,
  markInjected,
  type HandedOff,
} from './hand-off-response.js';
export * from './pagination/index.js';
export * from './ratelimit.js';
export {
  Authenticator,
  DEFAULT_REALM,
  type AuthenticatorOptions,
  type CredentialContext,
  type CredentialVerifier,
} from './authenticator.js';
