// The one way services reach URLs that came from outside (docs/security.md, outbound fetches). Redirects are followed
// here, hop by hop, so every Location is checked like the first URL before anything connects to it.
import { Agent, request, type Dispatcher } from 'undici';
import { readCappedBody } from './body.js';
import { FetchBlockedError, FetchError, FetchRedirectError, FetchTimeoutError } from './errors.js';
import type { FetchLimits } from './limits.js';
import { guardedLookup, systemResolver, type Resolver } from './lookup.js';
import { assertFetchableUrl, compilePolicy, type OutboundPolicy } from './policy.js';

export interface FetchRequest extends FetchLimits {
  /** The `Accept` of the use; `*\/*` when absent. */
  accept?: string;
  method?: 'GET' | 'HEAD' | 'POST';
  body?: string | Uint8Array;
  /** Only the names in `FORWARDED_HEADERS` are sent; anything else (Authorization, Cookie, …) is dropped. */
  headers?: Record<string, string | undefined>;
  /**
   * Sent as `Authorization: Bearer …` on the first request only (never after a redirect). Solely for
   * an endpoint the operator configured together with its key (the LLM summariser, docs/security.md, outbound fetches):
   * never for a URL that came from outside, and never a token a client sent us.
   */
  operatorBearerToken?: string;
  /**
   * Signs each hop (ActivityPub's HTTP Signatures): given the hop's method, URL and body, returns the
   * headers that prove who asks (Date, Digest, Signature, …), made for that URL alone — a redirect is
   * signed anew for its own target, never by forwarding the first hop's signature. These headers carry
   * no secret: the key stays with the caller.
   */
  sign?: (hop: {
    method: string;
    url: URL;
    body?: string | Uint8Array;
  }) => Record<string, string> | Promise<Record<string, string>>;
}

export interface FetchResponse {
  status: number;
  /** The URL that produced this response, after redirects. */
  url: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** Every redirect target followed, in order (absolute URLs). */
  redirects: string[];
  /** At least one redirect was followed and every hop was 301 or 308 (a stored URL may be updated). */
  permanentRedirect: boolean;
  /** The body was cut at `maxBytes` (only with `truncate`). */
  truncated: boolean;
}

export interface SafeFetcherOptions {
  policy: OutboundPolicy;
  /** Our public base URL, named in the User-Agent. */
  baseUrl: string;
  /** Host-name resolver; the system resolver by default. */
  lookup?: Resolver;
}

export interface SafeFetcher {
  /** The outbound policy every fetch obeys: checks made before a fetch (literalAddressRefusal) use it too. */
  readonly policy: OutboundPolicy;
  fetch(url: string | URL, request: FetchRequest): Promise<FetchResponse>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

/**
 * `link` and `x-hub-signature` are a WebSub hub's delivery headers (services/websub/src/domain/deliver.ts):
 * the hub and topic URLs and an HMAC of the body, neither a credential of ours.
 */
export const FORWARDED_HEADERS: readonly string[] = [
  'if-none-match',
  'if-modified-since',
  'content-type',
  'link',
  'x-hub-signature',
];

const USER_AGENT_PRODUCT = 'Murmur/0.1';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A fetcher with its own connection pool; hold one per service to reuse connections. */
export function createSafeFetcher(options: SafeFetcherOptions): SafeFetcher {
  compilePolicy(options.policy); // a bad allow-list fails at start-up, not at the first fetch
  const userAgent = `${USER_AGENT_PRODUCT} (+${options.baseUrl})`;
  const lookup = guardedLookup(options.policy, options.lookup ?? systemResolver);
  // The connect timeout is an Agent setting, so there is one pool per distinct value.
  const agents = new Map<number, Agent>();
  const agentFor = (connectTimeoutMs: number): Agent => {
    let agent = agents.get(connectTimeoutMs);
    if (!agent) {
      agent = new Agent({ connect: { lookup, timeout: connectTimeoutMs } });
      agents.set(connectTimeoutMs, agent);
    }
    return agent;
  };

  return {
    policy: options.policy,
    async fetch(url, req) {
      const dispatcher = agentFor(req.connectTimeoutMs ?? req.timeoutMs);
      return fetchFollowingRedirects(url, req, { dispatcher, policy: options.policy, userAgent });
    },
    async close() {
      const all = [...agents.values()];
      agents.clear();
      await Promise.all(all.map((a) => a.close()));
    },
  };
}

export interface SafeFetchOptions extends FetchRequest {
  allow: OutboundPolicy;
  baseUrl: string;
  lookup?: Resolver;
}

/** One fetch with a short-lived pool; prefer `createSafeFetcher` where many fetches are made. */
export async function safeFetch(url: string | URL, options: SafeFetchOptions): Promise<FetchResponse> {
  const { allow, baseUrl, lookup, ...req } = options;
  const fetcher = createSafeFetcher({ policy: allow, baseUrl, ...(lookup ? { lookup } : {}) });
  try {
    return await fetcher.fetch(url, req);
  } finally {
    await fetcher.close();
  }
}

interface Context {
  dispatcher: Dispatcher;
  policy: OutboundPolicy;
  userAgent: string;
}

async function fetchFollowingRedirects(
  input: string | URL,
  req: FetchRequest,
  ctx: Context,
): Promise<FetchResponse> {
  let url = assertFetchableUrl(input, ctx.policy);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), req.timeoutMs);
  let method = req.method ?? 'GET';
  let body = req.body;
  const redirects: string[] = [];
  let permanentRedirect = true;
  let resent = false;
  try {
    for (;;) {
      let res: Dispatcher.ResponseData;
      const signed = req.sign ? await req.sign({ method, url, ...(body === undefined ? {} : { body }) }) : {};
      try {
        res = await request(url, {
          dispatcher: ctx.dispatcher,
          method,
          headers: {
            ...outgoingHeaders(req, ctx.userAgent, body !== undefined, redirects.length === 0),
            ...signed,
          },
          ...(body === undefined ? {} : { body }),
          signal: timeout.signal,
        });
      } catch (err) {
        // A kept-alive connection the server closed just as this request went out (its idle timeout firing, or a
        // long pause of this process past it): no response came, so no handler ran. A GET or HEAD may be sent again
        // (RFC 9110 §9.2.2), once, on a new connection; a second failure is the answer.
        if (resent || method === 'POST' || timeout.signal.aborted || !closedBeforeResponse(err)) throw err;
        resent = true;
        continue;
      }
      const location = res.headers.location;
      if (!REDIRECT_STATUSES.has(res.statusCode) || location === undefined) {
        const { body: bytes, truncated } = await readCappedBody(
          res.body,
          {
            contentEncoding: headerText(res.headers['content-encoding']),
            contentLength: headerText(res.headers['content-length']),
          },
          { maxBytes: req.maxBytes, truncate: req.truncate === true },
        );
        return {
          status: res.statusCode,
          url: url.href,
          headers: flattenHeaders(res.headers),
          body: bytes,
          redirects,
          permanentRedirect: redirects.length > 0 && permanentRedirect,
          truncated,
        };
      }
      // Reading a small redirect body to its end lets the connection be reused for the next hop.
      await res.body.dump({ limit: 64 * 1024 });
      if (redirects.length >= req.maxRedirects) {
        throw new FetchRedirectError(`more than ${req.maxRedirects} redirects`, { url: url.href });
      }
      url = assertFetchableUrl(resolveLocation(location, url), ctx.policy);
      redirects.push(url.href);
      permanentRedirect &&= res.statusCode === 301 || res.statusCode === 308;
      // Browsers' rule: 303, and 301/302 after a POST, continue as a GET without the body.
      if (
        res.statusCode === 303 ||
        ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
      ) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      }
    }
  } catch (err) {
    throw asFetchError(err, { url: url.href, timedOut: timeout.signal.aborted, timeoutMs: req.timeoutMs });
  } finally {
    clearTimeout(timer);
  }
}

function outgoingHeaders(
  req: FetchRequest,
  userAgent: string,
  hasBody: boolean,
  firstHop: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: req.accept ?? '*/*',
    'accept-encoding': 'gzip, deflate, br',
  };
  if (firstHop && req.operatorBearerToken) headers.authorization = `Bearer ${req.operatorBearerToken}`;
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const key = name.toLowerCase();
    if (value === undefined || !FORWARDED_HEADERS.includes(key)) continue;
    if (key === 'content-type' && !hasBody) continue;
    headers[key] = value;
  }
  return headers;
}

function resolveLocation(location: string | string[], base: URL): URL {
  if (Array.isArray(location))
    throw new FetchRedirectError('redirect with several Location headers', { url: base.href });
  try {
    return new URL(location, base);
  } catch {
    throw new FetchRedirectError('redirect to an unusable Location', { url: base.href });
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = headerText(value);
    if (text !== undefined) flat[name.toLowerCase()] = text;
  }
  return flat;
}

function asFetchError(err: unknown, at: { url: string; timedOut: boolean; timeoutMs: number }): FetchError {
  // The connect-time guard's refusal reaches us as the socket error, possibly wrapped by undici.
  const blocked = findCause(err, (e): e is FetchBlockedError => e instanceof FetchBlockedError);
  if (blocked) {
    blocked.url ??= at.url;
    return blocked;
  }
  if (err instanceof FetchError) {
    err.url ??= at.url;
    return err;
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (
    at.timedOut ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new FetchTimeoutError(at.timeoutMs, { url: at.url, cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new FetchError(`Outbound request failed: ${message}`, { url: at.url, cause: err });
}

/** The connection closed (or was reset) before any response: undici's "other side closed", ECONNRESET, EPIPE. */
function closedBeforeResponse(err: unknown): boolean {
  if (findCause(err, (e): e is FetchBlockedError => e instanceof FetchBlockedError)) return false;
  return !!findCause(err, (e): e is Error => {
    const code = (e as { code?: unknown } | null)?.code;
    return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
  });
}

function findCause<T>(err: unknown, test: (e: unknown) => e is T): T | undefined {
  for (
    let e = err, depth = 0;
    e !== undefined && e !== null && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (test(e)) return e;
  }
  return undefined;
}
