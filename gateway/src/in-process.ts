// In-process dispatch: when a service runs in the gateway's own process (single-process mode), the
// gateway hands the request to that service's Fastify instance without a socket, through Fastify's
// injection (light-my-request), instead of proxying it over loopback HTTP. Everything the gateway
// does before and after the hop is shared with the proxy (proxy.ts): the request hooks (route table,
// CORS, rate and body limits), the forwarded request headers, the response header rewriting, the
// metrics and the error answers. The service runs its own hooks, limits, request id and error
// renderer exactly as for a request from its socket.
//
// Plain requests usually do not reach this file's route at all: the fast lane (fast-lane.ts) hands them
// over with handOffRaw before the gateway's Fastify lifecycle. What reaches the route goes one of two
// ways, chosen per request:
// - **Hand-off** (most requests): the service's router is given the client's own request and response
//   (Fastify's `routing`), with the URL and headers rewritten as they would leave for the service and
//   the response head rewritten on its way out. Nothing is copied and nothing is parsed twice: the
//   gateway's CPU per request falls from about 3.7 to about 1.6 times the service's own (measured by
//   bench/gateway/cpu-per-request.mjs; docs/adr/0016-in-process-dispatch-and-gateway-cost.md). It is
//   taken when the body, if any, has a declared length (which the gateway has checked against the
//   route's limit before the service reads a byte). The service sees the client's own peer: it trusts
//   the forwarded headers the gateway wrote when TRUST_PROXY trusts that peer, and otherwise finds the
//   client's address in the peer itself and our host in Host (set to X-Forwarded-Host for it).
// - **Injection** (light-my-request) for the rest: a chunked body, which the gateway must count as it
//   passes. Bodies stream both ways
//   with backpressure: the request body is handed to the service as the client's stream, and the
//   response is handed back as a stream from the moment the service writes its head — the archive
//   import and XML-RPC bodies are never held whole.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, InjectOptions } from 'fastify';
import { BoundedMemo } from '@murmur/core';
import { HandOffResponse, markHandedOver, markInjected, type HandedOff } from '@murmur/http';
import { findBodyLimitCause } from './body-limit.js';
import { isPublic } from './cors.js';
import { Deadline, deadlinesOf } from './deadlines.js';
import { connectionListed, isCorsHeader, isHopByHop, passServiceHeader } from './hop-by-hop.js';

/** The Fastify instance of each service that runs in this process. */
export type InProcessServices = Partial<Record<string, FastifyInstance>>;

interface InjectedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  raw: { res: { destroy(err?: Error): void } };
  stream(): Readable;
}

export interface InProcessHop {
  /** Request headers as they would leave for the service (reply-from's copy, then rewritten). */
  headers: IncomingHttpHeaders;
  /** Path and query as the service sees them. */
  url: string;
  /**
   * Whether TRUST_PROXY trusts the client's peer. A service handed the client's own socket reads the
   * forwarded headers only from a peer it trusts, as the gateway does; from any other it reads Host.
   */
  peerTrusted: boolean;
  /** The route's upstream timeout: for the response head, then between body chunks. */
  timeoutMs: number;
  /** Response headers as the proxy would rewrite them. */
  rewriteHeaders(headers: IncomingHttpHeaders, request: FastifyRequest): IncomingHttpHeaders;
  /** The service's answer: status and headers are set on `reply`; send `body` (whole, or a stream). */
  onResponse(
    request: FastifyRequest,
    reply: FastifyReply,
    res: { statusCode: number; body: Readable | Buffer },
  ): void;
  /** No answer: `error` says why, the same kinds of errors reply-from reports. */
  onError(reply: FastifyReply, failure: { error: Error & { statusCode?: number; code?: string } }): void;
  /** A handed-off request's response head is leaving (the hop's metrics). */
  onHandedOffHead(request: FastifyRequest): void;
}

class InProcessTimeout extends Error {
  readonly statusCode = 504;
  readonly code = 'UND_ERR_HEADERS_TIMEOUT';
  constructor() {
    super('The service did not answer in time.');
    this.name = 'InProcessTimeout';
  }
}

class InProcessFailure extends Error {
  readonly statusCode = 502;
  constructor(cause: unknown) {
    super('The service failed to answer.', { cause });
    this.name = 'InProcessFailure';
  }
}

/**
 * Dispatches one request to `service` in process. The caller's request hooks have run; the returned
 * promise settles when the response has been handed to `reply` (its body may still be streaming).
 */
export function dispatchInProcess(
  service: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  hop: InProcessHop,
): void {
  const raw = request.raw;
  // The root content-type parser hands on the raw stream (app.ts); no body, no stream.
  const candidate = request.body as Readable | undefined;
  const body = typeof candidate?.pipe === 'function' ? candidate : undefined;
  // A response of the gateway's server can be handed off (the platform's HandOffResponse); one made by the
  // gateway's own inject() cannot, and goes the injection's way like a chunked body.
  const response = reply.raw;
  if ((body === undefined || body === raw) && response instanceof HandOffResponse) {
    handOff(service, request, reply, response, hop);
    return;
  }
  const headers = hop.headers;
  // The service decides that a request has a body by these two headers; over the wire undici sends a
  // stream of unknown length chunked.
  if (body && headers['content-length'] === undefined) headers['transfer-encoding'] = 'chunked';
  // Light-my-request would otherwise name itself as the user agent; the service sees the client's.
  if (headers['user-agent'] === undefined) headers['user-agent'] = undefined;

  // The service writes no log line of its own for the request: the gateway writes it (hand-off-response.ts).
  // Released when the gateway's answer closes, finished or not: the service's own line, if any, would
  // have been written when its answer finished, which comes first.
  const release = markInjected(request.id);
  response.once('close', release);

  let limitError: Error | null = null;
  body?.once('error', (err) => {
    if (findBodyLimitCause(err)) limitError = err;
  });

  // Before the head: the client gets its 504 at once and the service's late answer is dropped when it
  // comes. After it: the body is cut, as undici's bodyTimeout cuts it. (A timer rather than an
  // AbortSignal for the injection: a signal costs listeners on every request.)
  let timedOut = false;
  let stream: Readable | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    if (stream) stream.destroy(new InProcessTimeout());
    else fail(new InProcessTimeout());
  }, hop.timeoutMs);

  const options: InjectOptions & { payloadAsStream: boolean; validate: boolean } = {
    method: raw.method as InjectOptions['method'],
    url: hop.url,
    headers: headers as InjectOptions['headers'],
    // The service sees the loopback peer it would see over a socket (its trusted proxy).
    remoteAddress: '127.0.0.1',
    payloadAsStream: true,
    // Light-my-request would check these options against its JSON schema on every request.
    validate: false,
  };
  if (body) options.payload = body;

  const fail = (err: unknown) => {
    clearTimeout(timer);
    if (reply.sent) return;
    const limit = limitError ?? (findBodyLimitCause(err) ? (err as Error) : null);
    if (limit) {
      hop.onError(reply, { error: limit });
      return;
    }
    hop.onError(reply, { error: timedOut ? new InProcessTimeout() : new InProcessFailure(err) });
  };

  (service.inject(options) as unknown as Promise<InjectedResponse>).then((res) => {
    if (timedOut) {
      res.raw.res.destroy();
      return;
    }
    // The body was cut at the gateway's limit while the service was reading it: its answer to the
    // broken body is not what the client should see (the proxy answers 413 here too).
    if (limitError) {
      res.raw.res.destroy();
      fail(limitError);
      return;
    }
    stream = res.stream();
    const serviceResponse = res.raw.res as { writableEnded?: boolean; destroy(): void };
    if (raw.socket?.destroyed) {
      // The client went away while the service worked: nothing to send, free the service's response.
      clearTimeout(timer);
      res.raw.res.destroy();
      return;
    }
    if (serviceResponse.writableEnded) {
      // Most answers are written whole at once (a JSON body): all of it is here already. Sent as one
      // buffer it goes out in one write, where piping the stream would cost a write per chunk.
      clearTimeout(timer);
      const whole = stream.read() as Buffer | null;
      sendHead(res);
      hop.onResponse(request, reply, { statusCode: res.statusCode, body: whole ?? Buffer.alloc(0) });
      return;
    }
    // The same timeout now bounds the wait between body chunks, as undici's bodyTimeout does.
    timer.refresh();
    const answer = stream;
    answer.on('data', () => timer.refresh());
    answer.once('end', () => clearTimeout(timer));
    answer.once('close', () => {
      clearTimeout(timer);
      // The client left (or the timeout cut the body) before the end: the service stops writing.
      if (!answer.readableEnded) res.raw.res.destroy();
    });
    sendHead(res);
    hop.onResponse(request, reply, { statusCode: res.statusCode, body: answer });
  }, fail);

  function sendHead(res: InjectedResponse): void {
    const rewritten = hop.rewriteHeaders(res.headers, request);
    for (const name of Object.keys(rewritten)) {
      const value = rewritten[name];
      if (value !== undefined) reply.header(name, value);
    }
    // As reply-from: a connection whose request body was not read to the end cannot be reused.
    if (!raw.complete) reply.header('connection', 'close');
    reply.code(res.statusCode);
  }
}

/** A hand-off of the client's own request and response to a service's router (handOffRaw). */
export interface RawHop {
  /** Path and query as the service sees them. */
  url: string;
  /** Request headers as they would leave for the service. */
  headers: IncomingHttpHeaders;
  /** The route's timeout: for the response head, then between body chunks. */
  timeoutMs: number;
  /** The gateway's own response headers (HSTS, CORS), sent with the service's head; never modified. */
  gatewayHeaders: OutgoingHttpHeaders;
  /** The request's id: the response's `x-request-id`, whatever the service sends. */
  requestId: string;
  /** Whether the route allows CORS: elsewhere the service's `access-control-*` headers are dropped. */
  publicRoute: boolean;
  /** The response head is leaving (the hop's metrics). */
  onHead(): void;
  /** The service missed the timeout or dropped its response unanswered: answer `error` on `res`. */
  answerError(error: Error & { statusCode?: number; code?: string }): void;
  /** The response closed, finished or not (the caller's log line and metrics; one listener for both). */
  onClose?(): void;
}

/**
 * The head the client gets: the gateway's headers, then the service's as the proxy would rewrite them
 * (proxy.ts: hop-by-hop headers dropped, CORS only on public routes, the gateway's request id). When
 * nothing of the service's is dropped (passesWhole) its own object is completed in place; otherwise the
 * head is built in one pass into a fresh object, without the proxy's intermediate copies and deletions.
 * The response's class (HandOffResponse) calls it once, as the head leaves: the hop's metrics hear it.
 */
function clientHead(res: ServerResponse, given: unknown, hop: RawHop): OutgoingHttpHeaders {
  const object =
    given && typeof given === 'object' && !Array.isArray(given) ? (given as OutgoingHttpHeaders) : null;
  // What a Fastify reply writes: one object of lower-case names, nothing set before, nothing to drop.
  if (object !== null && res.getHeaderNames().length === 0 && passesWhole(object, hop.publicRoute)) {
    const gateway = hop.gatewayHeaders;
    for (const name in gateway) if (object[name] === undefined) object[name] = gateway[name];
    object['x-request-id'] = hop.requestId;
    hop.onHead();
    return object;
  }
  const out: OutgoingHttpHeaders = {};
  const gateway = hop.gatewayHeaders;
  for (const name in gateway) out[name] = gateway[name];
  // Headers the service set with setHeader before writeHead (Node would merge them with the head's).
  const preset = res.getHeaderNames();
  // The Connection header names more headers of this hop only; its name may come in any case.
  let connection: unknown = preset.length > 0 ? res.getHeader('connection') : undefined;
  if (object) {
    for (const name in object) {
      if (name.length === 10 && name.toLowerCase() === 'connection') connection = object[name];
    }
  }
  const listed = connectionListed(connection);
  const pass = (name: string, value: OutgoingHttpHeaders[string]) =>
    passServiceHeader(out, name, value, listed, hop.publicRoute);
  for (const name of preset) {
    pass(name, res.getHeader(name));
    res.removeHeader(name);
  }
  if (object) for (const name in object) pass(name.toLowerCase(), object[name]);
  out['x-request-id'] = hop.requestId;
  hop.onHead();
  return out;
}

/** What headerVerdicts says of a response header name: it may pass on a route with CORS, without. */
const PASSES_PUBLIC = 1;
const PASSES_PRIVATE = 2;

/**
 * Verdicts on the response header names services send, remembered (passesWhole): the same dozen names
 * come with every answer, and one lookup costs less than checking a name's case, the hop-by-hop set and
 * the CORS prefix each time (bench/gateway/instructions.mjs --names: those checks were about 0.9k
 * instructions a request). Bounded: names are the services' own, but a service may echo some.
 */
const headerVerdicts = new BoundedMemo<string, number>(512);

function headerVerdict(name: string): number {
  if (name !== name.toLowerCase() || isHopByHop(name, null)) return 0;
  return isCorsHeader(name) ? PASSES_PUBLIC : PASSES_PUBLIC | PASSES_PRIVATE;
}

/**
 * Whether the client may get the service's head object itself, completed in place rather than copied:
 * every name is lower case (so none can double a gateway header under another case) and none would be
 * dropped (passServiceHeader: hop-by-hop, or CORS on a route without CORS). The service does not read
 * the object after writing its head.
 */
function passesWhole(object: OutgoingHttpHeaders, publicRoute: boolean): boolean {
  const needed = publicRoute ? PASSES_PUBLIC : PASSES_PRIVATE;
  for (const name in object) {
    if (object[name] === undefined) return false;
    if ((headerVerdicts.answer(name, headerVerdict) & needed) === 0) return false;
  }
  return true;
}

/** The gateway answers `error` on `res` in place of the service, whose later writes are then dropped. */
function answerInstead(res: HandOffResponse, state: HandOffState, error: Error): void {
  state.abandoned = true;
  state.gatewayWriting = true;
  state.hop.answerError(error);
  if (res.writableEnded) state.gatewayWriting = false;
  else res.once('finish', () => (state.gatewayWriting = false));
}

/** What a handed-off response carries here: its hop, and its deadline on the route's timeout. */
type HandOffState = HandedOff<RawHop, HandOffDeadline>;

/** A hand-off's deadline (deadlines.ts): refreshed by each write of the service's body, cancelled at close. */
class HandOffDeadline extends Deadline {
  constructor(private readonly res: HandOffResponse) {
    super();
  }

  expire(): void {
    handOffTimedOut(this.res);
  }
}

/** The route's timeout: before the head the gateway answers 504; between body chunks the body is cut, as undici's bodyTimeout cuts a proxied body. */
function handOffTimedOut(res: HandOffResponse): void {
  const state = handedOff(res);
  if (res.headersSent) res.destroy(new InProcessTimeout());
  else answerInstead(res, state, new InProcessTimeout());
}

/** The hand-off `res` carries (set by handOffRaw). */
const handedOff = (res: HandOffResponse) => res.handedOff as HandOffState;

/** A service that drops its response before answering: the client gets the proxy's 502, not a reset. */
function serviceDropped(res: HandOffResponse, error: Error | undefined): void {
  answerInstead(res, handedOff(res), new InProcessFailure(error));
}

/** A response emits `close` after `finish`, or alone when its connection was lost: one listener, shared. */
function handOffClosed(this: HandOffResponse): void {
  const state = handedOff(this);
  state.timer.cancel();
  state.hop.onClose?.();
}

/**
 * Hands the client's request and response to `service`'s router: the service answers on the client's
 * own response, whose head is rewritten on its way out. Used by the in-process route (handOff, below)
 * and by the fast lane that skips the gateway's own Fastify lifecycle (fast-lane.ts).
 */
export function handOffRaw(
  service: FastifyInstance,
  raw: IncomingMessage,
  res: HandOffResponse,
  hop: RawHop,
): void {
  const timer = new HandOffDeadline(res);
  deadlinesOf(hop.timeoutMs).add(timer);
  const state: HandOffState = {
    hop,
    timer,
    rewriteHead: clientHead,
    serviceDropped,
    headSent: false,
    abandoned: false,
    gatewayWriting: false,
  };
  res.handedOff = state;
  res.on('close', handOffClosed);
  // The request as it would leave for the service: its path and the headers the proxy would send.
  raw.url = hop.url;
  raw.headers = hop.headers;
  // The id is the gateway's, checked or made: the service keeps it without checking it again, and
  // leaves the request's log line to the gateway (libs/http/src/hand-off-response.ts).
  markHandedOver(hop.headers, hop.requestId);
  service.routing(raw, res);
}

/**
 * The in-process route's hand-off: the gateway's Fastify hooks have run; its reply is left unsent, the
 * service answers on the same response, and the gateway's onResponse hook (metrics, the request log)
 * runs when that answer finishes, as it does for a proxied request.
 */
function handOff(
  service: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  response: HandOffResponse,
  hop: InProcessHop,
): void {
  const headers = hop.headers;
  // The service's peer is the client's: untrusted, its Host must already say what X-Forwarded-Host says.
  if (!hop.peerTrusted) headers.host = headers['x-forwarded-host'] as string;
  handOffRaw(service, request.raw, response, {
    url: hop.url,
    headers,
    timeoutMs: hop.timeoutMs,
    gatewayHeaders: reply.getHeaders() as OutgoingHttpHeaders,
    requestId: request.id,
    publicRoute: isPublic(request.gatewayRoute),
    onHead: () => hop.onHandedOffHead(request),
    answerError: (error) => hop.onError(reply, { error }),
  });
}
