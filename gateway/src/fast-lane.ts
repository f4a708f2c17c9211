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
import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { isValidRequestId, type Logger } from '@murmur/platform';
import { declaredLengthExceeds } from './body-limit.js';
import { corsHeaders, isPublic } from './cors.js';
import { renderGatewayError, serviceTimedOut, serviceUnreachable } from './errors.js';
import { clientOf, type Trust } from './client-address.js';
import { forwardRaw } from './http-lane.js';
import { handOffRaw, type InProcessServices, type RawHop } from './in-process.js';
import { isTimeout } from './proxy.js';
import type { GatewayMetrics } from './metrics.js';
import { unsafePath } from './paths.js';
import { withoutHopByHop } from './hop-by-hop.js';
import { IpRateLimit } from './rate-limit.js';
import { DEFAULT_BODY_LIMIT, resolveRoute, type ServiceName } from './routes.js';
import type { Targets } from './config.js';
import { reportClosed } from './unfinished.js';

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

/** Returns a request handler that answers what it can and returns false for the rest. */
export function createFastLane(
  opts: FastLaneOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { inProcess, targets, metrics, logger, limiter } = opts;
  const hosts = new Map<string, string>();
  for (const [name, url] of Object.entries(targets)) if (url) hosts.set(name, new URL(url).host);
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
    if (!targets[entry.service]) return false;
    const service = inProcess[entry.service];
    const pool = service ? undefined : opts.pools.get(entry.service);
    if (!service && !pool) return false;
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

    // The headers as the proxy sends them (proxy.ts: upstreamHeaders, then rewriteRequestHeaders).
    const upstream: IncomingHttpHeaders = withoutHopByHop(headers);
    // In process, the service's peer is the client's, and it reads the forwarded headers only from a peer
    // it trusts (the same TRUST_PROXY): an untrusted one must find our host in Host itself.
    upstream.host =
      service && !opts.trust(socket.remoteAddress ?? '', 0)
        ? opts.publicHost
        : (hosts.get(name) ?? 'localhost');
    upstream['x-request-id'] = id;
    upstream['x-forwarded-for'] = client.forwardedFor;
    upstream['x-forwarded-proto'] = client.protocol;
    upstream['x-forwarded-host'] = opts.publicHost;

    const hop: RawHop = {
      url,
      headers: upstream,
      timeoutMs: entry.timeoutMs ?? opts.defaultTimeoutMs,
      gatewayHeaders,
      requestId: id,
      publicRoute,
      onClose: () =>
        reportClosed(logger, metrics, res, {
          requestId: id,
          service: name,
          method,
          url,
          socket,
          ip: client.ip,
          startedAt: started,
        }),
      onHead: () => metrics.observeUpstream(name, (performance.now() - started) / 1000),
      answerError: (error) => {
        const timedOut = isTimeout(error);
        metrics.countUpstreamError(name, timedOut ? 'timeout' : 'unreachable');
        logger.warn(
          { requestId: id, upstream: name, timedOut, cause: error.message },
          'service did not answer',
        );
        const failure = timedOut ? serviceTimedOut(name) : serviceUnreachable(name);
        const rendered = renderGatewayError(entry.errorStyle, failure, id);
        res.writeHead(rendered.status, {
          ...gatewayHeaders,
          'x-request-id': id,
          ...rendered.headers,
          'content-length': Buffer.byteLength(rendered.body),
        });
        res.end(rendered.body);
      },
    };
    if (service) handOffRaw(service, req, res, hop);
    else forwardRaw(pool!, req, res, hop);
    return true;
  };
}
