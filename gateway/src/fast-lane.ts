// The fast lane: a plain request is handed on straight from the gateway's HTTP server, without a
// Fastify lifecycle of the gateway's own — to a service in this process through its router (single
// process, in-process.ts handOffRaw), to a service in another process through its connection pool
// (http-lane.ts forwardRaw). (docs/adr/0016-in-process-dispatch-and-gateway-cost.md.) It does what the
// gateway's route does for such a request, with the same functions: the route table (resolveRoute),
// the path check (unsafePath), the body limit (declaredLengthExceeds), the per-IP limit (one
// IpRateLimit shared with the route's hook), CORS (corsHeaders), the forwarded headers and the
// response head's rewriting (hop-by-hop.ts), the error shapes (renderGatewayError), the metrics and the
// request log line.
//
// Anything else is left to the gateway's Fastify route, which answers it as before: OPTIONS, a path
// no row serves or that must be refused, a body without a declared length (it must be counted as it
// passes) or over the route's limit, a client over its allowance (the route answers the 429), a request
// carrying RFC 7239's Forwarded header, site host names (GATEWAY_SITE_HOSTS), and an invalid request id.
// X-Forwarded-* from a reverse proxy in front are resolved here under TRUST_PROXY exactly as the route
// resolves them (client-address.ts), so a deployment behind Caddy or nginx takes the lane too.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'undici';
import { type Logger } from '@murmur/core';
import { HandOffResponse, isValidRequestId } from '@murmur/http';
import { declaredLengthExceeds } from './body-limit.js';
import { corsHeaders, isPublic } from './cors.js';
import { renderGatewayError, serviceTimedOut, serviceUnreachable } from './errors.js';
import { clientOf, type Trust } from './client-address.js';
import { forwardRaw } from './http-lane.js';
import { handOffRaw, type InProcessServices, type RawHop } from './in-process.js';
import { isTimeout } from './proxy.js';
import type { GatewayMetrics } from './metrics.js';
import { unsafePath } from './paths.js';
import { hasHopByHop, withoutHopByHop } from './hop-by-hop.js';
import { IpRateLimit } from './rate-limit.js';
import { DEFAULT_BODY_LIMIT, resolveRoute, type ErrorStyle, type ServiceName } from './routes.js';
import type { Targets } from './config.js';
import { reportClosed, type HandedRequest } from './unfinished.js';

export interface FastLaneOptions {
  inProcess: InProcessServices;
  /** The connection pool of each service in another process (http-lane.ts). */
  pools: ReadonlyMap<string, Pool>;
  targets: Targets;
  metrics: GatewayMetrics;
  logger: Logger;
  /** Null when the limit is off. */
  limiter: IpRateLimit | null;
  /** Host of PUBLIC_URL, sent as X-Forwarded-Host. */
  publicHost: string;
  /** The Strict-Transport-Security value, or null. */
  hsts: string | null;
  defaultTimeoutMs: number;
  /** TRUST_PROXY as Fastify applies it (client-address.ts). */
  trust: Trust;
  /** True once the gateway is stopping: the route answers its 503. */
  stopping: () => boolean;
}

/** How the lane reaches one service: in this process, or through its pool; `host` is its URL's. */
interface Way {
  service: FastifyInstance | undefined;
  pool: Pool | undefined;
  host: string;
}

/** Returns a request handler that answers what it can and returns false for the rest. */
export function createFastLane(
  opts: FastLaneOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { limiter } = opts;
  // Each configured service's way on, found once: one lookup a request instead of four.
  const ways = new Map<string, Way>();
  for (const [name, url] of Object.entries(opts.targets)) {
    if (!url) continue;
    const service = opts.inProcess[name];
    const pool = service ? undefined : opts.pools.get(name);
    if (service || pool) ways.set(name, { service, pool, host: new URL(url).host });
  }
  // The gateway's own response headers besides the request id, built once (never changed after).
  const routeHeaders: OutgoingHttpHeaders = opts.hsts ? { 'strict-transport-security': opts.hsts } : {};
  const publicRouteHeaders: OutgoingHttpHeaders = { ...routeHeaders, ...corsHeaders() };

  return (req, res) => {
    if (opts.stopping()) return false;
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const headers = req.headers;
    if (
      method === 'OPTIONS' ||
      url.charCodeAt(0) !== 47 /* / */ ||
      url.startsWith('//') ||
      url.includes('\\')
    )
      return false;
    // RFC 7239's header is rare: the route drops it on its way to the service.
    if (headers.forwarded !== undefined) return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    const given = headers['x-request-id'];
    if (given !== undefined && !isValidRequestId(given)) return false;
    if (unsafePath(url)) return false;
    const entry = resolveRoute(method, url);
    if (!entry) return false;
    const way = ways.get(entry.service);
    if (!way) return false;
    const { service, pool } = way;
    // Only a response of the platform's class (every Murmur server's, not inject()'s) can be handed on.
    if (service && !(res instanceof HandOffResponse)) return false;
    if (declaredLengthExceeds(headers['content-length'], entry.bodyLimit ?? DEFAULT_BODY_LIMIT)) return false;
    const socket = req.socket;
    const client = clientOf(req, opts.trust);
    if (limiter) {
      const wait = limiter.hit(client.ip);
      if (wait !== null) {
        // Counted here: the route answers the 429 without counting it again.
        IpRateLimit.markOver(req, wait);
        return false;
      }
    }

    const id = given ?? randomUUID();
    const started = performance.now();
    const name: ServiceName = entry.service;
    const publicRoute = isPublic(entry);
    const gatewayHeaders = publicRoute ? publicRouteHeaders : routeHeaders;

    // The headers as the proxy sends them (proxy.ts: upstreamHeaders, then rewriteRequestHeaders). Most
    // clients send no hop-by-hop header: their own object is then completed in place — nothing reads
    // the client's headers once the request is handed on — rather than copied.
    const upstream: IncomingHttpHeaders = hasHopByHop(headers) ? withoutHopByHop(headers) : headers;
    // In process, the service's peer is the client's, and it reads the forwarded headers only from a peer
    // it trusts (the same TRUST_PROXY): an untrusted one must find our host in Host itself.
    upstream.host = service && !opts.trust(client.peer, 0) ? opts.publicHost : way.host;
    upstream['x-request-id'] = id;
    upstream['x-forwarded-for'] = client.forwardedFor;
    upstream['x-forwarded-proto'] = client.protocol;
    upstream['x-forwarded-host'] = opts.publicHost;

    const hop = new LaneHop(opts, res, entry.errorStyle, started, {
      url,
      headers: upstream,
      timeoutMs: entry.timeoutMs ?? opts.defaultTimeoutMs,
      gatewayHeaders,
      requestId: id,
      publicRoute,
      service: name,
      method,
      socket,
      ip: client.ip,
    });
    if (service) handOffRaw(service, req, res as HandOffResponse, hop);
    else forwardRaw(pool!, req, res, hop);
    return true;
  };
}

/**
 * One request on the lane: what its hop needs (RawHop) and what its log line says (HandedRequest), with
 * the hop's callbacks as methods — one object a request rather than an object and three closures.
 */
class LaneHop implements RawHop, HandedRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly timeoutMs: number;
  readonly gatewayHeaders: OutgoingHttpHeaders;
  readonly requestId: string;
  readonly publicRoute: boolean;
  readonly service: ServiceName;
  readonly method: string;
  readonly socket: Socket;
  readonly ip: string;

  constructor(
    private readonly lane: FastLaneOptions,
    private readonly res: ServerResponse,
    private readonly errorStyle: ErrorStyle,
    readonly startedAt: number,
    fields: Omit<LaneHop, 'startedAt' | 'onHead' | 'answerError' | 'onClose'>,
  ) {
    this.url = fields.url;
    this.headers = fields.headers;
    this.timeoutMs = fields.timeoutMs;
    this.gatewayHeaders = fields.gatewayHeaders;
    this.requestId = fields.requestId;
    this.publicRoute = fields.publicRoute;
    this.service = fields.service;
    this.method = fields.method;
    this.socket = fields.socket;
    this.ip = fields.ip;
  }

  onHead(): void {
    this.lane.metrics.observeUpstream(this.service, (performance.now() - this.startedAt) / 1000);
  }

  onClose(): void {
    reportClosed(this.lane.logger, this.lane.metrics, this.res, this);
  }

  answerError(error: Error & { statusCode?: number; code?: string }): void {
    const { service, requestId, res } = this;
    const timedOut = isTimeout(error);
    this.lane.metrics.countUpstreamError(service, timedOut ? 'timeout' : 'unreachable');
    this.lane.logger.warn(
      { requestId, upstream: service, timedOut, cause: error.message },
      'service did not answer',
    );
    const failure = timedOut ? serviceTimedOut(service) : serviceUnreachable(service);
    const rendered = renderGatewayError(this.errorStyle, failure, requestId);
    res.writeHead(rendered.status, {
      ...this.gatewayHeaders,
      'x-request-id': requestId,
      ...rendered.headers,
      'content-length': Buffer.byteLength(rendered.body),
    });
    res.end(rendered.body);
  }
}
