// The Fastify instance every service starts from: limits, request ids, body parsers, the one error
// handler, health and metrics, rate limiting and the auth verifier that defineRoute uses.
import { randomUUID } from 'node:crypto';
import {
  fastify,
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Registry } from 'prom-client';
import type { Bus, BusHeaders } from '@murmur/bus';
import type { BaseConfig, Logger } from '@murmur/core';
import { notFound, tooManyRequests, systemClock, type Clock } from '@murmur/core';
import type { Store } from '@murmur/store';
import { Authenticator, type AuthenticatorOptions, type CredentialVerifier } from './authenticator.js';
import { answerUnreadableRequest } from './client-error.js';
import { checkedRequestId, handOffResponseClass } from './hand-off-response.js';
import { registerBodyParsers } from './body.js';
import { renderError, toAppError, type ErrorStyle } from './errors.js';
import { registerObservability } from './observability.js';
import { closeConnectionsAfter, connectionGraceMs, refuseWhileStopping } from './shutdown.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Overrides the app's errorStyle for one route (set by defineRoute). */
    errorStyle?: ErrorStyle;
    /** The route's own time limit (defineRoute's `timeoutMs`, which defineRoute enforces). */
    timeoutMs?: number;
    /** defineRoute's `crossOrigin`: a declaration only, listed by registeredRoutes. */
    crossOrigin?: CrossOrigin;
    /** defineRoute's `digitParams`: a declaration only, listed by registeredRoutes. */
    digitParams?: readonly string[];
  }
}

/**
 * A route browsers on other origins may read: it reads no cookie or other ambient credential, so a
 * wildcard origin is safe. `allowHeaders`: the request headers a preflight may allow, when the route
 * takes others than the usual ones (an `Authorization` header, say).
 */
export type CrossOrigin = true | { allowHeaders: string };

/**
 * A route as the app registered it, with what the route declares about itself for whatever routes
 * requests to the service from outside (the limits it keeps, how it answers errors, who may read it).
 */
export interface RegisteredRoute {
  method: string;
  /** Fastify's URL pattern: `/feeds/:id/highlights`, `/sites/:username/*`. */
  url: string;
  /** The style its errors are answered in: the route's own, else the app's for its URL pattern. */
  errorStyle: ErrorStyle;
  /** Its body limit when it or the app sets one (absent: DEFAULT_BODY_LIMIT). */
  bodyLimit?: number;
  /** Its own time limit, when it sets one. */
  timeoutMs?: number;
  crossOrigin?: CrossOrigin;
  /** Path parameters that only ever hold decimal digits (defineRoute's `digitParams`). */
  digitParams?: readonly string[];
}

export type HttpApp = FastifyInstance;

export const DEFAULT_BODY_LIMIT = 256 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_HEADER_SIZE = 16 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Whether a client's `X-Request-Id` may be kept (1–128 of `A-Z a-z 0-9 . _ : -`); otherwise we make one. */
export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /**
   * Base configuration; TRUST_PROXY, and SHUTDOWN_TIMEOUT_MS (default 10 s): `close()` destroys the
   * connections of requests still running after half of it (connectionGraceMs, http/shutdown.ts).
   */
  config?: Partial<Pick<BaseConfig, 'TRUST_PROXY' | 'SHUTDOWN_TIMEOUT_MS'>>;
  /** Pinged by /readyz. */
  bus?: Pick<Bus, 'ping'>;
  /**
   * Who checks tokens and logins for `auth` routes and authenticatorOf (identity over the bus:
   * `identityVerifier(bus, logger)` of @murmur/identity-client). Without it, no route may ask for auth.
   */
  credentials?: CredentialVerifier;
  /**
   * Pinged by /readyz. A full Store also holds the failed-login throttle (Basic, XML-RPC logins) and
   * the counters of routes' store-backed `rateLimit`.
   */
  store?: Pick<Store, 'ping'> & Partial<Store>;
  /** Further dependencies /readyz pings besides the store and the bus (a service's blob store). */
  readiness?: Record<string, { ping(): Promise<void> }>;
  /** The process clock (ServiceContext.clock). Default systemClock. */
  clock?: Clock;
  /** Error body shape, by path. Default `'simple'`. */
  errorStyle?: ErrorStyle | ((url: string) => ErrorStyle);
  /** Default 256 KiB; routes may override. */
  bodyLimit?: number;
  /** Default time for a route to receive and answer a request (routes may override). Default 30 s. */
  requestTimeoutMs?: number;
  /** Socket inactivity timeout. Default 120 s. */
  connectionTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this. Default 72 s (longer than common proxies' idle time). */
  keepAliveTimeoutMs?: number;
  /** Longest path parameter; longer ones are 404. Default 200. */
  maxParamLength?: number;
  /** Cache, realm and failed-login throttle of the process's Authenticator. */
  auth?: Omit<AuthenticatorOptions, 'store' | 'clock'>;
  /** /readyz per-dependency timeout. Default 2 s. */
  readyTimeoutMs?: number;
  /** Node process metrics on /metrics. Default true. */
  processMetrics?: boolean;
}

export interface HttpState {
  readonly service: string;
  /** The process's one authenticator; undefined without credentials. */
  readonly authenticator: Authenticator | undefined;
  /** For store-backed route limits; undefined when the app got no full Store. */
  readonly store: Store | undefined;
  readonly clock: Clock;
  readonly requestTimeoutMs: number;
  readonly metrics: Registry;
  /** Every route the app registered, in registration order. */
  readonly routes: readonly RegisteredRoute[];
  styleFor(request: FastifyRequest): ErrorStyle;
}

/** Where defineRoute finds the app's state from any encapsulated scope. */
export const kHttpState = Symbol.for('murmur.http.state');

export function httpState(scope: FastifyInstance): HttpState {
  const state = (scope as unknown as Record<symbol, HttpState | undefined>)[kHttpState];
  if (!state) throw new Error('defineRoute needs a Fastify instance made by createHttpApp');
  return state;
}

/**
 * The process's Authenticator (for code outside routes, such as XML-RPC logins):
 * `await authenticatorOf(app).verifyCredentials(login, token, { ip: request.ip, headers: busHeaders(request) })`.
 */
export function authenticatorOf(scope: FastifyInstance): Authenticator {
  const authenticator = httpState(scope).authenticator;
  if (!authenticator) throw new Error('authentication needs createHttpApp({ credentials })');
  return authenticator;
}

/** Headers for bus.request/publish so the request id travels on. */
export function busHeaders(request: FastifyRequest): BusHeaders {
  return { 'x-request-id': request.id };
}

/** Sends `err` in the style of the request's area; 5xx details go to the log only. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  style: ErrorStyle,
): FastifyReply {
  const appError = toAppError(err);
  if (appError.status >= 500) {
    const original = appError.cause instanceof Error ? appError.cause : err;
    request.log.error({ err: original, status: appError.status }, 'request failed');
  }
  const rendered = renderError(style, appError, request.id);
  return reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
}

export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const styleOf = options.errorStyle ?? 'simple';
  const styleForUrl = (url: string): ErrorStyle => (typeof styleOf === 'function' ? styleOf(url) : styleOf);
  const styleFor = (request: FastifyRequest): ErrorStyle =>
    request.routeOptions?.config?.errorStyle ?? styleForUrl(request.url);

  const app = fastify({
    loggerInstance: options.logger,
    // Request lines are written by our onResponse hook (redacted, probes at debug).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (raw) => {
      // Handed over in process by the gateway, which checked or made it (hand-off-response.ts).
      const checked = checkedRequestId(raw.headers);
      if (checked !== undefined) return checked;
      const given = raw.headers['x-request-id'];
      return isValidRequestId(given) ? given : randomUUID();
    },
    trustProxy: options.config?.TRUST_PROXY ?? ['loopback'],
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    requestTimeout: requestTimeoutMs,
    connectionTimeout: options.connectionTimeoutMs ?? 120_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 72_000,
    routerOptions: { maxParamLength: options.maxParamLength ?? 200 },
    // One response class for every server of the process (hand-off-response.ts says why).
    http: { maxHeaderSize: MAX_HEADER_SIZE, ServerResponse: handOffResponseClass },
    // Answered by refuseWhileStopping (shutdown.ts) in the area's error shape, with Retry-After.
    return503OnClosing: false,
    clientErrorHandler: answerUnreadableRequest,
    frameworkErrors: (err, request, reply) => {
      sendError(request, reply, err, styleFor(request));
    },
  }) as unknown as FastifyInstance;

  closeConnectionsAfter(app, connectionGraceMs(options.config?.SHUTDOWN_TIMEOUT_MS ?? 10_000));

  const clock = options.clock ?? systemClock;
  const store = typeof options.store?.collection === 'function' ? (options.store as Store) : undefined;
  const authenticator = options.credentials
    ? new Authenticator(options.credentials, {
        ...options.auth,
        clock,
        ...(store ? { store } : {}),
      })
    : undefined;
  if (authenticator) {
    await authenticator.listen();
    app.addHook('onClose', async () => authenticator.close());
  }

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  refuseWhileStopping(app);
  registerBodyParsers(app);
  app.setErrorHandler((err, request, reply) => sendError(request, reply, err, styleFor(request)));
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, notFound('Not found.'), styleFor(request)),
  );

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000),
  });

  const metrics = registerObservability(app, {
    service: options.service,
    store: options.store,
    bus: options.bus,
    ...(options.readiness ? { readiness: options.readiness } : {}),
    readyTimeoutMs: options.readyTimeoutMs,
    processMetrics: options.processMetrics,
  });

  // What the app answers and what each route declares about itself, for whatever routes requests to
  // the service (the gateway's route table is generated from these: scripts/generate-gateway-routes.mjs).
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    const bodyLimit = route.bodyLimit ?? options.bodyLimit;
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        errorStyle: config.errorStyle ?? styleForUrl(route.url),
        ...(bodyLimit === undefined ? {} : { bodyLimit }),
        ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
        ...(config.crossOrigin === undefined ? {} : { crossOrigin: config.crossOrigin }),
        ...(config.digitParams === undefined ? {} : { digitParams: config.digitParams }),
      });
    }
  });
  const state: HttpState = {
    service: options.service,
    authenticator,
    store,
    clock,
    requestTimeoutMs,
    metrics,
    routes,
    styleFor,
  };
  app.decorate(kHttpState, state);
  return app;
}

/** The routes `app` (made by createHttpApp) registered, one a method, with what each declares. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return httpState(app).routes;
}
