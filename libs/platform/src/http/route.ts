// defineRoute: a route described by zod schemas. The platform authenticates, validates path
// parameters (→ 404) and merged request parameters (→ 400 naming the parameter), runs the handler and
// passes its result through the response schema, so handlers contain only the endpoint's logic.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import { badRequest, internalError, notFound, unsupportedMediaType } from '../errors/index.js';
import { busHeaders, httpState } from './app.js';
import { bearerToken, invalidToken, missingToken, requireScopes, type AuthInfo } from './auth.js';
import { mediaType, XML_MEDIA_TYPES } from './body.js';
import type { ErrorStyle } from './errors.js';
import { mergeParams, paramError, parseUrlEncoded, type ParamRecord } from './params.js';

export type AuthMode = 'required' | 'optional';
export type ResponseSchemas = Record<number, z.ZodType>;

export interface RouteRateLimit {
  max: number;
  /** Milliseconds, or text such as `'1 minute'`. */
  timeWindow: number | string;
  /** Default: the client address (as trustProxy resolves it). */
  keyGenerator?: (request: FastifyRequest) => string | Promise<string>;
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
  /** Path parameters; a failure is 404 (bad path ids are not found, formats.md). */
  params?: PS;
  /** Merged parameters: query < form body < JSON body. A failure is 400 naming the parameter. */
  input?: IS;
  /** Per status; the result is parsed (unknown keys stripped) before sending. A mismatch is a 500. */
  response?: R;
  auth?: A;
  /** Scopes the token must grant (`create` ⊇ `read`, `follow`; app tokens have all). */
  scopes?: readonly string[];
  /** Also accept the token as an `access_token` parameter (Micropub/Microsub clients do this). */
  tokenParam?: boolean;
  bodyLimit?: number;
  /** Time to receive and answer the request; default the app's requestTimeoutMs. Over it → 503. */
  timeoutMs?: number;
  rateLimit?: RouteRateLimit;
  /** Accept text/xml and application/xml bodies as a raw string in `request.body`. */
  xml?: boolean;
  /** For id-set endpoints: a bare JSON array body is taken as this parameter. */
  arrayBody?: string;
  /** Overrides the app's error style for this route. */
  errorStyle?: ErrorStyle;
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

function tokenFrom(
  request: FastifyRequest,
  merged: ParamRecord,
  tokenParam: boolean | undefined,
): string | undefined {
  // Other schemes (Basic from a proxy in front) are not ours to judge: as if no token was sent.
  const fromHeader = bearerToken(request.headers.authorization);
  if (fromHeader !== undefined) return fromHeader;
  if (!tokenParam) return undefined;
  const v = merged.access_token;
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof last === 'string' && last !== '' ? last : undefined;
}

export function defineRoute<
  PS extends z.ZodType | undefined = undefined,
  IS extends z.ZodType | undefined = undefined,
  A extends AuthMode | undefined = undefined,
  R extends ResponseSchemas | undefined = undefined,
>(scope: FastifyInstance, spec: RouteSpec<PS, IS, A, R>): void {
  const state = httpState(scope);
  if (spec.auth && !state.verifier) throw new Error(`${spec.url}: auth routes need createHttpApp({ bus })`);
  const timeoutMs = spec.timeoutMs ?? state.requestTimeoutMs;
  // Node's requestTimeout is per server: it must allow the slowest upload any route accepts.
  if (scope.server.requestTimeout < timeoutMs) scope.server.requestTimeout = timeoutMs;

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const merged = mergeParams(
      queryOf(request.url),
      bodyParams(request, spec.arrayBody, spec.input !== undefined),
    );

    let auth: AuthInfo | undefined;
    if (spec.auth) {
      const token = tokenFrom(request, merged, spec.tokenParam);
      if (token === undefined) {
        if (spec.auth === 'required') throw missingToken();
      } else {
        const found = await state.verifier!.verify(token, busHeaders(request));
        if (!found) throw invalidToken();
        requireScopes(found, spec.scopes ?? []);
        auth = found;
      }
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
    if (result === reply || reply.sent) return reply;
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
    handlerTimeout: timeoutMs,
    config: {
      ...(spec.errorStyle === undefined ? {} : { errorStyle: spec.errorStyle }),
      ...(spec.rateLimit === undefined ? {} : { rateLimit: { ...spec.rateLimit } }),
    },
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
