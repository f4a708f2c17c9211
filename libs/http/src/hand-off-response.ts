// The response class of every Murmur HTTP server (createHttpApp, the gateway and its internal server).
// When the gateway runs services in its own process it hands a client's response to a service's
// router (gateway/src/in-process.ts); these methods then rewrite the service's head on its way out
// and drop what the service writes after the gateway answered for it. While nothing is handed off
// (`handedOff` null) each method is one check and Node's own.
//
// Why one class for every server, not a subclass for the gateway's alone: V8 optimises the code that
// writes responses — Node's http internals, Fastify's reply, our hooks — for the classes of response it
// has seen there. With the gateway's responses of one class and the services' of another, that code
// saw two in the single process, and serving a service at its own port got slower once the gateway had
// been used (4–5 % slower, interleaved 1 s slices of `wrk -c50`). With one class, a paired run through the
// gateway gave 90.6 % of identity alone against 86.4 % with two; the benchmark itself did not show the
// gain beyond its spread (2026-11-28; docs/adr/0016-in-process-dispatch-and-gateway-cost.md, revision
// "one response class for every server").
import { ServerResponse, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

/** What a handed-off response carries while a service answers on it (set by whoever handed it on). */
export interface HandedOff<Hop = unknown, Timer extends { refresh(): unknown } = { refresh(): unknown }> {
  /** The hand-off's own data, given back to `rewriteHead` and `serviceDropped`. */
  readonly hop: Hop;
  /** The route's timeout (a timer, or anything that starts again on `refresh()`): refreshed by every write of the service's body. */
  readonly timer: Timer;
  // Methods, not function-typed fields: a HandedOff<SomeHop> is then a HandedOff<unknown> as well.
  /** The head the client gets from the one the service wrote (`given`: its headers object, if any). */
  rewriteHead(res: HandOffResponse, given: unknown, hop: Hop): OutgoingHttpHeaders;
  /** The service destroyed its response before answering: answer for it. */
  serviceDropped(res: HandOffResponse, error: Error | undefined): void;
  /** The service's head has been rewritten and sent; its writes now reach the socket untouched. */
  headSent: boolean;
  /**
   * Set when the one who handed it on answered for the service — it missed the route's timeout or
   * dropped its response unanswered — so whatever the service writes later is dropped. `gatewayWriting`
   * lets that answer through.
   */
  abandoned: boolean;
  gatewayWriting: boolean;
}

export class HandOffResponse extends ServerResponse {
  handedOff: HandedOff | null = null;

  override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
    const state = this.handedOff;
    if (state !== null && !state.headSent) {
      if (state.abandoned)
        return state.gatewayWriting
          ? super.writeHead(statusCode, reason as string, headers as OutgoingHttpHeaders)
          : this;
      state.headSent = true;
      const given = headers ?? (typeof reason === 'string' ? undefined : reason);
      const out = state.rewriteHead(this, given, state.hop);
      return typeof reason === 'string'
        ? super.writeHead(statusCode, reason, out)
        : super.writeHead(statusCode, out);
    }
    return super.writeHead(statusCode, reason as string, headers as OutgoingHttpHeaders);
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const state = this.handedOff;
    if (state !== null) {
      if (state.abandoned) {
        if (!state.gatewayWriting) return true;
      } else state.timer.refresh();
    }
    return super.write(chunk, encoding as BufferEncoding, callback as () => void);
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    const state = this.handedOff;
    if (state !== null && state.abandoned && !state.gatewayWriting) {
      const done = [chunk, encoding, callback].find((a) => typeof a === 'function') as
        (() => void) | undefined;
      done?.();
      return this;
    }
    return super.end(chunk, encoding as BufferEncoding, callback as () => void);
  }

  /** A service that drops its response before answering: the one who handed it on answers instead. */
  override destroy(error?: Error): this {
    const state = this.handedOff;
    if (state === null || state.abandoned || this.headersSent || this.req.socket?.destroyed)
      return super.destroy(error);
    state.serviceDropped(this, error);
    return this;
  }
}

/** Node's type wants a class generic in its request type; this one serves IncomingMessage only. */
export const handOffResponseClass = HandOffResponse as unknown as typeof ServerResponse;

/**
 * Marks the headers of a request the gateway handed over in process (gateway/src/in-process.ts) with the
 * `x-request-id` it checked or made. Two things follow in the service (createHttpApp):
 * - It keeps that id without checking it again (genReqId): the check cost about 1 µs a request in the
 *   single process's profiles, the gateway's fresh UUID being flattened for the pattern.
 * - It writes no "request completed" line of its own (observability.ts): the gateway writes one for
 *   the request, with the client's address and the URL the client asked for, into the same output.
 *   Two lines a request doubled the single process's logs and, at the default level (info), cost
 *   the single process through its gateway about 15 points of identity alone's throughput (72.8 %
 *   before, 87.6 % after, 2026-11-29; docs/adr/0016-in-process-dispatch-and-gateway-cost.md, revision
 *   "one log line a request").
 * Only code in this process can set a symbol on a headers object; no request from a socket carries it.
 */
const HANDED_OVER = Symbol('murmur.handedOver');

type MarkableHeaders = IncomingHttpHeaders & { [HANDED_OVER]?: string };

export function markHandedOver(headers: IncomingHttpHeaders, requestId: string): void {
  (headers as MarkableHeaders)[HANDED_OVER] = requestId;
}

/**
 * The ids of the requests the gateway is passing to a service through an injection (light-my-request),
 * with how many of each: injection copies the headers into an object of its own, so the symbol of
 * markHandedOver does not reach the service. The gateway marks the id instead (markInjected) until its
 * answer to the client has closed, and the service knows such a request by it.
 */
const injectedIds = new Map<string, number>();

/**
 * Marks the request the gateway passes to a service through an injection with `requestId`, the
 * `x-request-id` it sends (gateway/src/in-process.ts). Returns the release, to call once the gateway's
 * answer has closed; it may be called more than once.
 */
export function markInjected(requestId: string): () => void {
  injectedIds.set(requestId, (injectedIds.get(requestId) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (injectedIds.get(requestId) ?? 1) - 1;
    if (left > 0) injectedIds.set(requestId, left);
    else injectedIds.delete(requestId);
  };
}

/** The request as a service's hook sees it: Node's, or light-my-request's when it was injected. */
interface ServedRequest {
  headers: IncomingHttpHeaders;
  isLightMyRequest?: boolean;
}

/**
 * Whether the gateway handed this request over in process: given the client's own request
 * (markHandedOver), or through an injection (markInjected). Only code in this process makes an injected
 * request (`isLightMyRequest`); a request from a socket is never one.
 */
export function handedOverInProcess(raw: ServedRequest): boolean {
  if ((raw.headers as MarkableHeaders)[HANDED_OVER] !== undefined) return true;
  if (raw.isLightMyRequest !== true || injectedIds.size === 0) return false;
  const id = raw.headers['x-request-id'];
  return typeof id === 'string' && injectedIds.has(id);
}

/** The request's `x-request-id` when it is the one the gateway marked (markHandedOver), else undefined. */
export function checkedRequestId(headers: IncomingHttpHeaders): string | undefined {
  const marked = (headers as MarkableHeaders)[HANDED_OVER];
  return marked !== undefined && headers['x-request-id'] === marked ? marked : undefined;
}
