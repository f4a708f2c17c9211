// The gateway: request ids, the route table, CORS, rate and body limits, then the proxy. It builds
// the Fastify instance and never listens; main.ts (or the single-process launcher) does.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import {
  fastify,
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { badRequest, notFound, tooManyRequests, type Logger } from '@murmur/core';
import {
  answerUnreadableRequest,
  closeConnectionsAfter,
  connectionGraceMs,
  isValidRequestId,
  MAX_HEADER_SIZE,
  refuseWhileStopping,
  toAppError,
  handOffResponseClass,
} from '@murmur/http';
import { bodyTooLarge, countingLimit, declaredLengthExceeds } from './body-limit.js';
import { targetsFromConfig, type GatewayConfig, type Targets } from './config.js';
import { addCorsHeaders, isPublic, sendPreflight } from './cors.js';
import { unsafePath } from './paths.js';
import { sendGatewayError, serviceAbsent } from './errors.js';
import { registerHealthz, registerInternalEndpoints } from './health.js';
import { GatewayMetrics } from './metrics.js';
import type { InProcessServices } from './in-process.js';
import { answerUpstreamFailure, isUpstreamFailure, registerProxy } from './proxy.js';
import { IpRateLimit } from './rate-limit.js';
import { compileTrust } from './client-address.js';
import { createFastLane } from './fast-lane.js';
import { servicePool } from './http-lane.js';
import { answerAbandoned, reportUnfinished } from './unfinished.js';
import { isIP } from 'node:net';
import type { Pool } from 'undici';
import {
  areaErrorStyle,
  DEFAULT_BODY_LIMIT,
  resolveRoute,
  resolveSiteHostRoute,
  type ErrorStyle,
  type RouteEntry,
} from './routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route-table entry of a proxied request; null for the gateway's own endpoints. */
    gatewayRoute: RouteEntry | null;
    /** performance.now() when the request left for the service. */
    upstreamStartedAt: number;
  }
  interface FastifyContextConfig {
    gatewayProxy?: boolean;
  }
}

export interface CreateGatewayOptions {
  config: GatewayConfig;
  /** Service base URLs; they override the `<NAME>_URL` variables of `config`. */
  targets?: Targets;
  logger: Logger;
  /** Shared with the internal server's /metrics; absent: a fresh set. */
  metrics?: GatewayMetrics;
  /**
   * Services running in this process (single-process mode): their requests are handed to these
   * Fastify instances without a socket (in-process.ts); every other service is proxied over HTTP.
   * A service here still needs its target URL for the aggregate /readyz and the Host it is sent.
   */
  inProcess?: InProcessServices;
  /**
   * Plain requests take the fast lane (fast-lane.ts) past the gateway's own Fastify lifecycle, to a
   * service in process or over HTTP. Default true; false sends every request through the route (the
   * tests compare both).
   */
  fastLane?: boolean;
}

export interface GatewayServers {
  /** The public server: the route table, /healthz, nothing else. */
  app: FastifyInstance;
  /** /metrics, /readyz and /healthz, for GATEWAY_INTERNAL_PORT on INTERNAL_HOST; never public. */
  internal: FastifyInstance;
}

// Longest route timeout (archive import) plus slack: the server must not cut a request the route allows.
const SERVER_REQUEST_TIMEOUT_MS = 330_000;

function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  // The same rule as every service's, so an id the gateway keeps is one the services keep too.
  return isValidRequestId(given) ? given : randomUUID();
}

function styleOf(request: FastifyRequest): ErrorStyle {
  if (request.gatewayRoute) return request.gatewayRoute.errorStyle;
  return request.routeOptions.config.gatewayProxy ? areaErrorStyle(request.url) : 'simple';
}

export async function createGateway(options: CreateGatewayOptions): Promise<FastifyInstance> {
  const { config, logger } = options;
  const targets: Targets = { ...targetsFromConfig(config), ...options.targets };
  const metrics = options.metrics ?? new GatewayMetrics();
  const publicUrl = new URL(config.PUBLIC_URL);
  const hsts = publicUrl.protocol === 'https:' ? 'max-age=31536000' : null;

  const app = fastify({
    loggerInstance: logger,
    // One line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestId,
    requestIdHeader: false,
    trustProxy: config.TRUST_PROXY,
    // Its responses can be handed to a service in this process (in-process.ts); the class is every
    // Murmur server's (libs/http/src/hand-off-response.ts).
    http: { maxHeaderSize: MAX_HEADER_SIZE, ServerResponse: handOffResponseClass },
    requestTimeout: SERVER_REQUEST_TIMEOUT_MS,
    connectionTimeout: SERVER_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: 72_000,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Answered by refuseWhileStopping below, in the area's error shape with Retry-After.
    return503OnClosing: false,
    clientErrorHandler: answerUnreadableRequest,
    // Malformed URLs and the like, refused before any route runs.
    frameworkErrors: (err, request, reply) => {
      sendGatewayError(reply, 'simple', toAppError(err));
    },
  }) as unknown as FastifyInstance;
  // A client that stops reading a download must not hold the stop hostage (libs/http/src/shutdown.ts).
  closeConnectionsAfter(app, connectionGraceMs(config.SHUTDOWN_TIMEOUT_MS));
  // A Host that is neither ours nor an address belongs to a site with its own name (GATEWAY_SITE_HOSTS).
  const siteHost = (request: FastifyRequest): boolean => {
    if (!config.GATEWAY_SITE_HOSTS) return false;
    const host = request.hostname.toLowerCase();
    return host !== publicUrl.hostname && host !== 'localhost' && isIP(host.replace(/^\[|\]$/g, '')) === 0;
  };
  // `Expect: 100-continue` (curl sends it for bodies over 1 MB): the client waits for 100 before
  // sending the body. Node would send it for every such request; here it is sent only when the body
  // can be taken, so a request bound for a 404, 503 or 413 is refused before the upload starts (and its
  // connection closed, as the body will not be read). Other expectations get Node's 417.
  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (bodyWillBeRefused(req)) res.setHeader('connection', 'close');
    else res.writeContinue();
    app.server.emit('request', req, res);
  });
  const bodyWillBeRefused = (req: IncomingMessage): boolean => {
    // Site host names route by Host, which is only known for sure inside the request pipeline.
    if (config.GATEWAY_SITE_HOSTS) return false;
    const entry = resolveRoute(req.method ?? 'GET', req.url ?? '/');
    if (!entry || !targets[entry.service]) return true;
    return declaredLengthExceeds(req.headers['content-length'], entry.bodyLimit ?? DEFAULT_BODY_LIMIT);
  };
  app.decorateRequest('gatewayRoute', null);
  app.decorateRequest('upstreamStartedAt', 0);

  // Bodies are streamed to the services unparsed, whatever their type; limits are enforced below.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (hsts) reply.header('strict-transport-security', hsts);
    if (!request.routeOptions.config.gatewayProxy) return done();
    const startedAt = performance.now();
    // Held now: once the connection has closed, the request no longer reaches its socket.
    const socket = request.raw.socket;
    reply.raw.once('close', () => {
      // A finished answer is logged and counted by the onResponse hook below.
      if (reply.raw.writableFinished) return;
      reportUnfinished(logger, metrics, reply.raw, {
        requestId: request.id,
        service: request.gatewayRoute?.service ?? 'gateway',
        method: request.method,
        url: request.url,
        socket,
        // request.ip would need the socket the request has lost by now.
        ip: socket.remoteAddress,
        startedAt,
      });
    });
    const unsafe = unsafePath(request.url);
    if (unsafe) return done(badRequest(unsafe));

    if (request.method === 'OPTIONS') {
      const wanted = request.headers['access-control-request-method'];
      const target = resolveRoute(typeof wanted === 'string' ? wanted : 'GET', request.url);
      if (isPublic(target)) {
        sendPreflight(reply, target);
        return;
      }
    }
    const entry = siteHost(request)
      ? resolveSiteHostRoute(request.url)
      : resolveRoute(request.method, request.url);
    request.gatewayRoute = entry;
    if (isPublic(entry)) addCorsHeaders(reply);
    done();
  });

  // A request arriving during a stop: the area's 503 with Retry-After (libs/http/src/shutdown.ts),
  // after the hook above has set its request id and route.
  const stopping = refuseWhileStopping(app);

  // One counter for both ways in (rate-limit.ts): this hook and the fast lane. After the route-table
  // hook, so an OPTIONS preflight answered there is not counted; /healthz is never limited.
  const limiter =
    config.GATEWAY_RATE_LIMIT_PER_MINUTE > 0 ? new IpRateLimit(config.GATEWAY_RATE_LIMIT_PER_MINUTE) : null;
  if (limiter) {
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.routeOptions.config.gatewayProxy) return done();
      const wait = limiter.hitOnce(request.raw, request.ip);
      if (wait === null) return done();
      reply.headers({
        'x-ratelimit-limit': String(limiter.max),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(wait),
      });
      done(tooManyRequests(wait));
    });
  }

  // After the rate limit (route-level onRequest hooks run after global ones), so probing unknown
  // paths or oversized uploads still counts against a client's allowance.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!request.routeOptions.config.gatewayProxy) return done(null, payload);
    const entry = request.gatewayRoute;
    // Only real endpoints reach a service: a path no row serves is the gateway's 404, in the area's style.
    if (!entry) return done(notFound('No such endpoint.'));
    if (!targets[entry.service]) return done(serviceAbsent(entry.service));
    const limit = entry.bodyLimit ?? DEFAULT_BODY_LIMIT;
    if (declaredLengthExceeds(request.headers['content-length'], limit)) return done(bodyTooLarge(limit));
    // A declared length is enforced by Node's parser; only a chunked body needs counting.
    if (request.headers['transfer-encoding'] !== undefined) {
      const counted = countingLimit(limit);
      pipeline(payload, counted, () => {});
      return done(null, counted);
    }
    done(null, payload);
  });

  app.setErrorHandler((err, request, reply) => {
    const appError = toAppError(err);
    // A client that left makes the answer's stream fail: logged and counted when its connection
    // closes (unfinished.ts), and there is no one to answer.
    if (answerAbandoned(reply.raw)) return;
    // The service's connection broke after its head, before any of its body reached the client: the
    // client can still have the proxy's 502 (or 504 for a body timeout).
    if (request.gatewayRoute && isUpstreamFailure(err)) return answerUpstreamFailure(reply, err, metrics);
    // 502–504 are the services' state, logged where they arise; a 500 is a gateway bug.
    if (appError.status === 500) request.log.error({ err }, 'gateway error');
    // The client may still be sending a body we will not read.
    if (appError.status === 413) reply.header('connection', 'close');
    return sendGatewayError(reply, styleOf(request), appError);
  });

  app.setNotFoundHandler((request, reply) =>
    sendGatewayError(reply, 'simple', notFound('No such endpoint.')),
  );

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const service = request.gatewayRoute?.service ?? 'gateway';
    metrics.countRequest(service, reply.statusCode);
    // Probes and scrapes arrive every few seconds; they would drown the request log.
    const level = request.routeOptions.config.gatewayProxy ? 'info' : 'debug';
    if (logger.isLevelEnabled(level)) {
      request.log[level](
        {
          req: request,
          res: reply,
          upstream: service,
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
    }
    done();
  });

  const inProcess = options.inProcess ?? {};
  // The same TRUST_PROXY as the app's own `trustProxy`, for the ways in that run before (or beside) it.
  const trust = compileTrust(config.TRUST_PROXY);
  if (options.fastLane !== false && !config.GATEWAY_SITE_HOSTS) {
    // A pool for each service in another process (http-lane.ts), closed with the gateway.
    const pools = new Map<string, Pool>();
    for (const [name, url] of Object.entries(targets))
      if (url && !inProcess[name]) pools.set(name, servicePool(url));
    app.addHook('onClose', async () => {
      await Promise.all([...pools.values()].map((pool) => pool.destroy()));
    });
    const lane = createFastLane({
      inProcess,
      pools,
      targets,
      metrics,
      logger,
      limiter,
      publicHost: publicUrl.host,
      hsts,
      defaultTimeoutMs: config.GATEWAY_UPSTREAM_TIMEOUT_MS,
      trust,
      stopping,
    });
    // Ahead of Fastify's own request listener: what the lane does not take goes on to it unchanged.
    const [routing] = app.server.listeners('request') as Array<
      (req: IncomingMessage, res: ServerResponse) => void
    >;
    app.server.removeListener('request', routing!);
    app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!lane(req, res)) routing!(req, res);
    });
  }

  registerHealthz(app);
  registerProxy(app, {
    targets,
    metrics,
    defaultTimeoutMs: config.GATEWAY_UPSTREAM_TIMEOUT_MS,
    publicHost: publicUrl.host,
    inProcess: options.inProcess,
    trust,
  });
  await app.ready();
  return app;
}

/** The internal server: the gateway's own /metrics, the deployment's aggregate /readyz and /healthz. */
export async function createInternalServer(options: {
  config: GatewayConfig;
  targets?: Targets;
  metrics: GatewayMetrics;
  logger: Logger;
}): Promise<FastifyInstance> {
  const targets: Targets = { ...targetsFromConfig(options.config), ...options.targets };
  const app = fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    http: { ServerResponse: handOffResponseClass },
    frameworkErrors: (err, _request, reply) => {
      sendGatewayError(reply, 'simple', toAppError(err));
    },
  }) as unknown as FastifyInstance;
  closeConnectionsAfter(app, connectionGraceMs(options.config.SHUTDOWN_TIMEOUT_MS));
  app.setNotFoundHandler((_request, reply) =>
    sendGatewayError(reply, 'simple', notFound('No such endpoint.')),
  );
  registerInternalEndpoints(app, {
    targets,
    readyTimeoutMs: options.config.GATEWAY_READY_TIMEOUT_MS,
    metrics: options.metrics,
  });
  await app.ready();
  return app;
}

/** The public gateway and its internal server, sharing one set of metrics; neither listens yet. */
export async function createGatewayServers(options: CreateGatewayOptions): Promise<GatewayServers> {
  const metrics = options.metrics ?? new GatewayMetrics();
  const app = await createGateway({ ...options, metrics });
  const internal = await createInternalServer({ ...options, metrics });
  return { app, internal };
}
