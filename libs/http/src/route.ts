// defineRoute: a route described by zod schemas. The platform authenticates, validates path
// parameters (→ 404) and merged request parameters (→ 400 naming the parameter), runs the handler and
// passes its result through the response schema, so handlers contain only the endpoint's logic.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import { badRequest, internalError, notFound, tooManyRequests, unsupportedMediaType } from '@murmur/core';
import { createStoreRateLimiter, type StoreRateLimiter } from './ratelimit.js';
import { busHeaders, httpState, type CrossOrigin, type HttpState } from './app.js';
import { bearerToken, requireScopes, type AuthInfo } from './auth.js';
import type { Authenticator } from './authenticator.js';
import { mediaType, XML_MEDIA_TYPES } from './body.js';
import { routeTimedOut, type ErrorStyle } from './errors.js';
import { lastValue, mergeParams, paramError, parseUrlEncoded, type ParamRecord } from './params.js';

export type AuthMode = 'required' | 'optional';
export type ResponseSchemas = Record<number, z.ZodType>;

/**
 * Per-process counting (@fastify/rate-limit): each replica counts on its own.
 * @deprecated Use KeyedRateLimit (`key: 'user' | 'ip'`), counted in the store and shared by replicas.
 */
export interface RouteRateLimit {
  max: number;
  /** Milliseconds, or text such as `'1 minute'`. */
  timeWindow: number | string;
  /** Default: the client address (as trustProxy resolves it). */
  keyGenerator?: (request: FastifyRequest) => string | Promise<string>;
}

/**
 * Store-backed limit shared by every replica. `key: 'user'` counts per verified user (so every
 * spelling of the same credential shares one count; anonymous requests count per client address),
 * `key: 'ip'` per client address (checked before authentication), or a function of the request and
 * its verified auth. Over the limit → 429 with Retry-After.
 */
export interface KeyedRateLimit {
  max: number;
  windowMs: number;
  key: 'user' | 'ip' | ((request: FastifyRequest, auth: AuthInfo | undefined) => string);
  /** Default `fixed`. */
  mode?: 'fixed' | 'sliding';
  /** Counter name in the store; default `route <METHOD> <url>`. */
  name?: string;
  /** Message of the 429. */
  message?: string;
}

type InputOf<S> = S extends z.ZodType ? z.output<S> : ParamRecord;
type ParamsOf<S> = S extends z.ZodType ? z.output<S> : Record<string, string>;
type AuthOf<A> = A extends 'required' ? AuthInfo : AuthInfo | undefined;
type ResultOf<R> = R extends ResponseSchemas ? z.input<R[keyof R]> | FastifyReply | void : unknown;

export interface RouteContext<P, I, A> {
  params: P;
  input: I;
  auth: A;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The request's logger (carries the request id). */
  log: FastifyBaseLogger;
}

export interface RouteSpec<
  PS extends z.ZodType | undefined,
  IS extends z.ZodType | undefined,
  A extends AuthMode | undefined,
  R extends ResponseSchemas | undefined,
> {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  /** Path parameters; a failure is 404 (bad path ids are not found, docs/api/conventions.md). */
  params?: PS;
  /** Merged parameters: query < form body < JSON body. A failure is 400 naming the parameter. */
  input?: IS;
  /** Per status; the result is parsed (unknown keys stripped) before sending. A mismatch is a 500. */
  response?: R;
  /**
   * `required`: 401 without valid credentials; `optional`: anonymous is fine, bad credentials are not.
   * Header credentials are checked in onRequest, before the body is read.
   */
  auth?: A;
  /** Scopes the token must grant (`create` ⊇ `read`, `follow`; app tokens have all). */
  scopes?: readonly string[];
  /**
   * Also accept HTTP Basic: username or email + app token (Feedbin clients). Such logins act with every
   * scope and count toward the failed-login throttle. Needs createHttpApp({ store }).
   */
  basic?: boolean;
  /**
   * Also accept the token as an `access_token` parameter (Micropub/Microsub clients do this). From the
   * query or body, so without a header the check waits until the body is parsed.
   */
  tokenParam?: boolean;
  bodyLimit?: number;
  /** Time to receive and answer the request; default the app's requestTimeoutMs. Over it → 503. */
  timeoutMs?: number;
  rateLimit?: RouteRateLimit | KeyedRateLimit;
  /** Accept text/xml and application/xml bodies as a raw string in `request.body`. */
  xml?: boolean;
  /** For id-set endpoints: a bare JSON array body is taken as this parameter. */
  arrayBody?: string;
  /** Overrides the app's error style for this route. */
  errorStyle?: ErrorStyle;
  /**
   * Declares that browsers on other origins may read this route (it reads no cookie). Only a
   * declaration: the route sends no CORS header for it; registeredRoutes lists it for whatever routes
   * requests to the service and answers for it cross-origin.
   */
  crossOrigin?: CrossOrigin;
  /**
   * Path parameters that only ever hold decimal digits, as part of the path's shape: with
   * `digitParams: ['entry_id']`, `/feeds/12/highlights` is this route's path and `/feeds/ada/highlights`
   * none of it. Only a declaration (`params` still validates the value); registeredRoutes lists it, so
   * whatever routes requests to the service can route such paths by their shape.
   */
  digitParams?: readonly string[];
  /**
   * Returns the body (sent as JSON through `response[status]`), or undefined for an empty body.
   * To answer differently (HTML, redirects, streams), use `reply` and `return reply`.
   */
  handler: (ctx: RouteContext<ParamsOf<PS>, InputOf<IS>, AuthOf<A>>) => Promise<ResultOf<R>>;
}

function queryOf(url: string): ParamRecord {
  const q = url.indexOf('?');
  return parseUrlEncoded(q < 0 ? '' : url.slice(q + 1));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function bodyParams(
  request: FastifyRequest,
  arrayBody: string | undefined,
  wantsInput: boolean,
): ParamRecord | undefined {
  const body = request.body;
  if (body === undefined || body === null) return undefined;
  // An XML body is the route's own business (request.body); it holds no parameters.
  if ((XML_MEDIA_TYPES as readonly string[]).includes(mediaType(request.headers['content-type'])))
    return undefined;
  if (isRecord(body)) return body;
  if (Array.isArray(body) && arrayBody !== undefined) return { [arrayBody]: body };
  if (wantsInput) throw badRequest('The JSON body must be an object.');
  return undefined;
}

function tokenParamOf(merged: ParamRecord): string | undefined {
  const last = lastValue(merged.access_token);
  return typeof last === 'string' && last !== '' ? last : undefined;
}

// What authentication found for a request (set in onRequest, by defineRoute or requireAuth).
const verified = new WeakMap<FastifyRequest, AuthInfo>();

/** The verified credentials of a request, once its route (or scope) authenticated it. */
export function authOf(request: FastifyRequest): AuthInfo | undefined {
  return verified.get(request);
}

function authenticatorFor(state: HttpState, what: string, basic: boolean | undefined): Authenticator {
  const authenticator = state.authenticator;
  if (!authenticator) throw new Error(`${what}: authentication needs createHttpApp({ credentials })`);
  if (basic && !authenticator.acceptsLogins)
    throw new Error(`${what}: Basic logins need createHttpApp({ store }) for the failed-login throttle`);
  return authenticator;
}

export interface RequireAuthOptions {
  /** Also accept HTTP Basic (username or email + app token). */
  basic?: boolean;
  /** Scopes a route needs, by method (HEAD asks as GET) and route pattern; undefined → none. */
  scopeOf?: (method: string, url: string) => readonly string[] | string | undefined;
}

/**
 * A route's time limit has passed: an answer not yet begun is a 503 through the app's error handler; one
 * already under way (a stream whose head has left) is cut, as there is no other way to say so. It is cut
 * without an error: Fastify would take one as the handler's failure and try to send a 503 on a response
 * whose head has left, which throws out of its promise handling and ends the process.
 */
function answerTimedOut(reply: FastifyReply, timeoutMs: number): void {
  if (reply.sent || reply.raw.destroyed) return;
  if (reply.raw.headersSent) {
    reply.log.warn({ timeoutMs }, "answer cut short: the route's time limit passed while it was being sent");
    reply.raw.destroy();
  } else void reply.send(routeTimedOut());
}

/**
 * Every route of `scope` requires credentials, checked in onRequest before any body is read. Routes
 * read them as ctx.auth (with `auth: 'required'`) or authOf(request).
 */
export function requireAuth(scope: FastifyInstance, options: RequireAuthOptions = {}): void {
  const authenticator = authenticatorFor(httpState(scope), 'requireAuth', options.basic);
  scope.addHook('onRequest', async (request) => {
    const auth = await authenticator.fromHeader(request, { basic: options.basic });
    if (!auth) throw authenticator.missingToken();
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const needed = options.scopeOf?.(method, request.routeOptions.url ?? '');
    if (needed !== undefined) requireScopes(auth, typeof needed === 'string' ? [needed] : needed);
    verified.set(request, auth);
  });
}

function isKeyed(limit: RouteRateLimit | KeyedRateLimit | undefined): limit is KeyedRateLimit {
  return limit !== undefined && 'key' in limit;
}

/** Fastify's names of the path parameters in a URL pattern (`/feeds/:entry_id/highlights` → entry_id). */
function pathParamNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

export function defineRoute<
  PS extends z.ZodType | undefined = undefined,
  IS extends z.ZodType | undefined = undefined,
  A extends AuthMode | undefined = undefined,
  R extends ResponseSchemas | undefined = undefined,
>(scope: FastifyInstance, spec: RouteSpec<PS, IS, A, R>): void {
  const state = httpState(scope);
  const notInPath = spec.digitParams?.find((name) => !pathParamNames(spec.url).includes(name));
  if (notInPath !== undefined)
    throw new Error(`${spec.url}: digitParams names "${notInPath}", which is no parameter of its path`);
  const authenticator = spec.auth ? authenticatorFor(state, spec.url, spec.basic) : undefined;
  const keyed = isKeyed(spec.rateLimit) ? spec.rateLimit : undefined;
  let limiter: StoreRateLimiter | undefined;
  if (keyed) {
    if (!state.store) throw new Error(`${spec.url}: a keyed rateLimit needs createHttpApp({ store })`);
    const methods = (Array.isArray(spec.method) ? spec.method : [spec.method]).join(',');
    limiter = createStoreRateLimiter(state.store, {
      name: keyed.name ?? `route ${methods} ${spec.url}`,
      max: keyed.max,
      windowMs: keyed.windowMs,
      ...(keyed.mode === undefined ? {} : { mode: keyed.mode }),
      clock: state.clock,
    });
  }
  const limited = new WeakSet<FastifyRequest>();
  const enforceLimit = async (request: FastifyRequest, auth: AuthInfo | undefined): Promise<void> => {
    if (!keyed || !limiter || limited.has(request)) return;
    limited.add(request);
    const key =
      typeof keyed.key === 'function'
        ? keyed.key(request, auth)
        : keyed.key === 'user' && auth
          ? `user:${auth.userId}`
          : `ip:${request.ip}`;
    const result = await limiter.hit(key);
    if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, keyed.message);
  };
  // The limit waits for authentication unless it counts per address.
  const limitBeforeAuth = keyed?.key === 'ip';

  // Header credentials, before the body is read. Without a header, a tokenParam route waits for the
  // parameters; every other route decides now.
  const onRequest = async (request: FastifyRequest): Promise<void> => {
    if (limitBeforeAuth) await enforceLimit(request, undefined);
    let auth = verified.get(request);
    if (authenticator && !auth) {
      auth = await authenticator.fromHeader(request, { basic: spec.basic });
      if (auth) verified.set(request, auth);
      else if (spec.auth === 'required' && !spec.tokenParam) throw authenticator.missingToken();
    }
    if (auth) requireScopes(auth, spec.scopes ?? []);
    // A tokenParam route without header credentials counts once the parameter has been checked.
    if (auth || !authenticator || !spec.tokenParam) await enforceLimit(request, auth);
  };
  const timeoutMs = spec.timeoutMs ?? state.requestTimeoutMs;
  // Node's requestTimeout is per server: it must allow the slowest upload any route accepts.
  if (scope.server.requestTimeout < timeoutMs) scope.server.requestTimeout = timeoutMs;
  // The route's time limit, from its first hook to its answer. Fastify's own (the route option
  // handlerTimeout) does the same with an AbortController for a request.signal no route reads, and a
  // `close` listener on the request that it removes when the response finishes: in CPU profiles of a
  // service under load that removal took 2.5–3.0 µs a request, 0.1–0.3 µs with this timer (2026-11-29;
  // docs/adr/0016-in-process-dispatch-and-gateway-cost.md, revision of that day). A response's `close`
  // comes when it has been sent or its client has gone, and either way the timer is no longer needed.
  const startTimer = (_request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const timer = setTimeout(answerTimedOut, timeoutMs, reply, timeoutMs);
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const merged = mergeParams(
      queryOf(request.url),
      bodyParams(request, spec.arrayBody, spec.input !== undefined),
    );

    // Also set by requireAuth for every route of its scope.
    let auth = verified.get(request);
    if (authenticator && !auth && spec.tokenParam) {
      // Only a header of another scheme (or none) gets here: the parameter may carry the token.
      const token = bearerToken(request.headers.authorization) ?? tokenParamOf(merged);
      if (token !== undefined) {
        const found = await authenticator.verifyToken(token, busHeaders(request));
        if (!found) throw authenticator.invalidToken();
        requireScopes(found, spec.scopes ?? []);
        verified.set(request, found);
        auth = found;
      } else if (spec.auth === 'required') throw authenticator.missingToken();
      await enforceLimit(request, auth);
    }

    let params: unknown = request.params;
    if (spec.params) {
      const parsed = spec.params.safeParse(request.params);
      if (!parsed.success) throw notFound();
      params = parsed.data;
    }

    let input: unknown = merged;
    if (spec.input) {
      const parsed = spec.input.safeParse(merged);
      if (!parsed.success) throw paramError(parsed.error, merged);
      input = parsed.data;
    }

    const ctx = { params, input, auth, request, reply, log: request.log } as RouteContext<
      ParamsOf<PS>,
      InputOf<IS>,
      AuthOf<A>
    >;
    const result: unknown = await spec.handler(ctx);
    // Answered already, or being answered: a stream whose head has left (and which may have been cut
    // since) must not be sent again — Fastify would throw writing a second head.
    if (result === reply || reply.sent || reply.raw.headersSent) return reply;
    if (result === undefined) return reply.send();

    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && !/json/i.test(type)) return reply.send(result);
    if (!spec.response) return reply.send(result);
    const schema = spec.response[reply.statusCode];
    if (!schema) {
      request.log.error(
        { status: reply.statusCode, route: spec.url },
        'no response schema for this status (bug)',
      );
      throw internalError();
    }
    const out = schema.safeParse(result);
    if (!out.success) {
      request.log.error(
        { issues: out.error.issues, route: spec.url },
        'response does not match its schema (bug)',
      );
      throw internalError();
    }
    return reply.send(out.data);
  };

  scope.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
    config: {
      ...(spec.errorStyle === undefined ? {} : { errorStyle: spec.errorStyle }),
      ...(spec.rateLimit === undefined || keyed ? {} : { rateLimit: { ...spec.rateLimit } }),
      // What the route declares about itself, for registeredRoutes.
      ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
      ...(spec.crossOrigin === undefined ? {} : { crossOrigin: spec.crossOrigin }),
      ...(spec.digitParams === undefined ? {} : { digitParams: spec.digitParams }),
    },
    onRequest: authenticator || keyed ? [startTimer, onRequest] : startTimer,
    // Refused before the body is read: XML is buffered only for routes that parse it.
    preParsing: async (request, _reply, payload) => {
      if (
        !spec.xml &&
        (XML_MEDIA_TYPES as readonly string[]).includes(mediaType(request.headers['content-type']))
      ) {
        throw unsupportedMediaType();
      }
      return payload;
    },
    handler: handle,
  });
}
