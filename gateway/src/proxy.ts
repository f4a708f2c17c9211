// One catch-all @fastify/http-proxy registration; the upstream of each request is the target of the
// service its route-table entry names (resolved earlier, in the request hooks). Bodies are never
// parsed: the raw request stream goes to the service and the service's response stream comes back.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { fastifyHttpProxy, type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyTooLarge, findBodyLimitCause } from './body-limit.js';
import { stripCorsHeaders, isPublic } from './cors.js';
import { sendGatewayError, serviceTimedOut, serviceUnreachable } from './errors.js';
import type { GatewayMetrics } from './metrics.js';
import type { Targets } from './config.js';
import type { Trust } from './client-address.js';
import { stripHopByHop, withoutHopByHop } from './hop-by-hop.js';
import { SERVICE_POOL_OPTIONS } from './http-lane.js';
import { dispatchInProcess, type InProcessHop, type InProcessServices } from './in-process.js';
import { SITE_HOST_ROUTE, type RouteEntry } from './routes.js';

export interface ProxyOptions {
  targets: Targets;
  defaultTimeoutMs: number;
  metrics: GatewayMetrics;
  /** Host of PUBLIC_URL, sent as X-Forwarded-Host: never the client's own Host header. */
  publicHost: string;
  /** Services in this process: their requests are dispatched without a socket (in-process.ts). */
  inProcess?: InProcessServices;
  /** TRUST_PROXY as Fastify applies it (client-address.ts): whether a handed-off client's peer is trusted. */
  trust: Trust;
}

type ReplyOptions = NonNullable<FastifyHttpProxyOptions['replyOptions']>;

/**
 * The client's headers as they go to a service in process, before rewriteRequestHeaders: reply-from's
 * copy of them (without Connection and what it names, and so without the other hop-by-hop headers that
 * rewriteRequestHeaders drops anyway), Host the service's.
 */
function upstreamHeaders(
  request: FastifyRequest,
  hosts: Map<string, string>,
  entry: RouteEntry,
): IncomingHttpHeaders {
  const headers = withoutHopByHop(request.raw.headers);
  headers.host = hosts.get(entry.service) ?? 'localhost';
  return headers;
}

function forwardedFor(request: Pick<FastifyRequest, 'ips' | 'ip'>): string {
  // With a trusted proxy in front, `ips` is the verified chain, nearest first.
  const chain = request.ips;
  return chain && chain.length > 0 ? [...chain].reverse().join(', ') : request.ip;
}

/** Whether a failed hop to a service ran out of time (a 504), from undici's error codes or our own. */
export function isTimeout(err: Error & { statusCode?: number; code?: string }): boolean {
  return (
    err.statusCode === 504 ||
    err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err.code === 'UND_ERR_BODY_TIMEOUT' ||
    err.code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}

/**
 * Whether `err` is the service's connection failing (undici's errors) while the gateway waited for its
 * answer or its body: the service's fault, answered 502 or 504 while the client has not had a head.
 */
export function isUpstreamFailure(err: unknown): err is Error & { statusCode?: number; code?: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('UND_ERR_');
}

/** The answer to a service that did not answer (or broke off before its body): 413, 502 or 504. */
export function answerUpstreamFailure(
  reply: FastifyReply,
  error: Error & { statusCode?: number; code?: string },
  metrics: GatewayMetrics,
): void {
  const entry = reply.request.gatewayRoute!;
  const limit = findBodyLimitCause(error);
  if (limit) {
    reply.header('connection', 'close');
    sendGatewayError(reply, entry.errorStyle, bodyTooLarge(limit.limit));
    return;
  }
  const timedOut = isTimeout(error);
  metrics.countUpstreamError(entry.service, timedOut ? 'timeout' : 'unreachable');
  reply.log.warn({ upstream: entry.service, timedOut, cause: error.message }, 'service did not answer');
  sendGatewayError(
    reply,
    entry.errorStyle,
    timedOut ? serviceTimedOut(entry.service) : serviceUnreachable(entry.service),
  );
}

export function registerProxy(app: FastifyInstance, opts: ProxyOptions): void {
  const { targets, metrics } = opts;

  // reply-from types its hooks for any server kind; this gateway is plain HTTP/1.
  const onUpstreamError: NonNullable<ReplyOptions['onError']> = (anyReply, { error }) =>
    answerUpstreamFailure(anyReply as unknown as FastifyReply, error, metrics);

  const onUpstreamResponse: NonNullable<ReplyOptions['onResponse']> = (request, reply, res) => {
    metrics.observeUpstream(
      request.gatewayRoute!.service,
      (performance.now() - request.upstreamStartedAt) / 1000,
    );
    // The declared type is wrong: reply-from hands over `{ statusCode, headers, stream }`; the
    // in-process hop `{ statusCode, body }`, the body whole when the service had written it all.
    const answer = res as unknown as { stream?: Readable; body?: Readable | Buffer };
    void reply.send(answer.body ?? answer.stream);
  };

  const inProcess = opts.inProcess ?? {};
  // The Host header the service would see over HTTP: its own address, as reply-from sends it.
  const upstreamHosts = new Map<string, string>();
  for (const [name, url] of Object.entries(targets)) if (url) upstreamHosts.set(name, new URL(url).host);

  const upstreamOf = (request: Pick<FastifyRequest, 'gatewayRoute'>) =>
    targets[request.gatewayRoute!.service]!;

  // Built once per route entry (they differ only in timeout), not once per request. `base` is
  // http-proxy's copy of replyOptions, with its own header sanitising wrapped around rewriteHeaders.
  const perEntry = new Map<RouteEntry, ReplyOptions>();
  function replyOptionsFor(entry: RouteEntry, base: ReplyOptions): ReplyOptions {
    let options = perEntry.get(entry);
    if (!options) {
      const timeout = entry.timeoutMs ?? opts.defaultTimeoutMs;
      options = { ...base, getUpstream: upstreamOf, timeout, onResponse: onUpstreamResponse };
      perEntry.set(entry, options);
    }
    return options;
  }

  const proxyOptions: FastifyHttpProxyOptions = {
    upstream: '',
    // The root content-type parser already hands the raw stream on; see app.ts.
    proxyPayloads: false,
    internalRewriteLocationHeader: false,
    httpMethods: ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'],
    config: { gatewayProxy: true },
    disableRequestLogging: true,
    destroyAgent: true,
    // The fast lane's pool options (http-lane.ts): reply-from turns TLS verification off by default, and
    // idle connections are closed well before the service would close them.
    undici: { ...SERVICE_POOL_OPTIONS, connect: { ...SERVICE_POOL_OPTIONS.connect } },
    replyOptions: {
      getUpstream: upstreamOf,
      // reply-from retries GETs answered 503 by default; a service saying 503 means it, say it on.
      retryDelay: () => null,
      rewriteRequestHeaders: (request, headers) => {
        // reply-from has already dropped Connection and the headers it names (it must, before this
        // hook, so a client cannot name the headers added here); the client's raw headers still say which.
        const out = stripHopByHop(headers as IncomingHttpHeaders, request.raw.headers.connection);
        out['x-request-id'] = request.id;
        out['x-forwarded-for'] = forwardedFor(request);
        out['x-forwarded-proto'] = request.protocol;
        // Our own host, except for a site's own host name: publishing picks the site by it.
        out['x-forwarded-host'] = request.gatewayRoute === SITE_HOST_ROUTE ? request.host : opts.publicHost;
        delete out.forwarded;
        return out;
      },
      rewriteHeaders: (headers, request) => {
        const out = stripHopByHop(headers as IncomingHttpHeaders);
        if (request) {
          out['x-request-id'] = request.id;
          if (!isPublic(request.gatewayRoute)) stripCorsHeaders(out);
        }
        return out;
      },
      onError: onUpstreamError,
    },
    handler: (request, reply, dest, options) => {
      request.upstreamStartedAt = performance.now();
      const entry = request.gatewayRoute!;
      const local = inProcess[entry.service];
      if (!local) return reply.from(dest, replyOptionsFor(entry, options));
      const q = request.url.indexOf('?');
      dispatchInProcess(local, request, reply, {
        headers: options.rewriteRequestHeaders!(request, upstreamHeaders(request, upstreamHosts, entry)),
        url: q === -1 ? dest : dest + request.url.slice(q),
        peerTrusted: opts.trust(request.raw.socket?.remoteAddress ?? '', 0),
        timeoutMs: entry.timeoutMs ?? opts.defaultTimeoutMs,
        rewriteHeaders: (headers, req) => options.rewriteHeaders!(headers, req) as IncomingHttpHeaders,
        onResponse: onUpstreamResponse as unknown as InProcessHop['onResponse'],
        onError: onUpstreamError as unknown as InProcessHop['onError'],
        onHandedOffHead: (req) =>
          metrics.observeUpstream(
            req.gatewayRoute!.service,
            (performance.now() - req.upstreamStartedAt) / 1000,
          ),
      });
      return reply;
    },
  };
  void app.register(fastifyHttpProxy, proxyOptions);
}
