export {
  FetchBlockedError,
  FetchError,
  FetchRedirectError,
  FetchTimeoutError,
  FetchTooLargeError,
} from './errors.js';
export { FETCH_LIMITS, type FetchLimits, type FetchUse } from './limits.js';
export {
  MAX_URL_LENGTH,
  assertFetchableUrl,
  literalAddressRefusal,
  outboundPolicyFromConfig,
  type OutboundPolicy,
} from './policy.js';
export type { Resolver } from './lookup.js';
export {
  FORWARDED_HEADERS,
  createSafeFetcher,
  safeFetch,
  type FetchRequest,
  type FetchResponse,
  type SafeFetchOptions,
  type SafeFetcher,
  type SafeFetcherOptions,
} from './fetcher.js';
