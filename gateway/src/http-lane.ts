// The fast lane's way to a service in another process: the request goes to the service's connection
// pool with undici's dispatch and the answer straight back onto the client's response — no Fastify
// lifecycle of the gateway's own and no reply-from streams in between. The route's proxy
// (proxy.ts, @fastify/http-proxy) cost the gateway more CPU per request than the identity service it
// fronted (docs/adr/0016-in-process-dispatch-and-gateway-cost.md, "the distributed fast lane").
//
// It behaves as the route's proxy does: the same request and response headers (built by the lane with
// the same functions), the route's timeout for the head and then between body chunks (undici's
// headersTimeout and bodyTimeout, as reply-from sets them), the head sent with the first body bytes so
// that a service breaking off before its body still gets the client a 502, `Connection: close` when
// the client's body was not read to the end, backpressure both ways, and the service's request
// aborted when the client leaves.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { connectionListed, passServiceHeader } from './hop-by-hop.js';
import type { RawHop } from './in-process.js';

/**
 * How long the gateway keeps an idle connection to a service. A service's server closes idle keep-alive
 * connections itself after 72 s and says so (`Keep-Alive: timeout=72`), and undici would keep them until
 * 2 s before that. Close to the service's own deadline both ends act at about the same moment: a request
 * the gateway sends on a connection the service is closing fails (a 502 for a request nothing was wrong
 * with), and a service closing many of them at once stalls its event loop for the requests it is serving
 * (measured 2026-11-29: 46 at once, 10–25 ms; docs/adr/0016-in-process-dispatch-and-gateway-cost.md).
 * The gateway closes them well before, so the service never has to.
 */
export const SERVICE_IDLE_CONNECTION_MS = 20_000;

/** The connection pool options of the fast lane (servicePool) and the route's proxy (proxy.ts) alike. */
export const SERVICE_POOL_OPTIONS = {
  connections: 128,
  pipelining: 1,
  // Caps the service's keep-alive hint; without a hint undici keeps 4 s (its default).
  keepAliveMaxTimeout: SERVICE_IDLE_CONNECTION_MS,
  // An https service must present a valid certificate (reply-from would turn the check off).
  connect: { rejectUnauthorized: true },
} as const;

/** One pool per service, as the route's proxy keeps one per upstream. */
export function servicePool(url: string, options: { idleMs?: number } = {}): Pool {
  return new Pool(url, {
    ...SERVICE_POOL_OPTIONS,
    keepAliveMaxTimeout: options.idleMs ?? SERVICE_IDLE_CONNECTION_MS,
  });
}

class ClientGone extends Error {
  constructor() {
    super('The client closed the connection.');
    this.name = 'ClientGone';
  }
}

type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The head the client gets: the gateway's headers, then the service's without this hop's own. */
function responseHead(given: ResponseHeaders, hop: RawHop): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const gateway = hop.gatewayHeaders;
  for (const name in gateway) out[name] = gateway[name];
  const listed = connectionListed(given.connection);
  for (const name in given) passServiceHeader(out, name, given[name], listed, hop.publicRoute);
  out['x-request-id'] = hop.requestId;
  return out;
}

/** Sends the client's request to `pool`'s service and its answer back on `res`. */
export function forwardRaw(pool: Pool, req: IncomingMessage, res: ServerResponse, hop: RawHop): void {
  let controller: Dispatcher.DispatchController | null = null;
  // The client's response closed before its end: the client left, or the gateway cut it (below).
  let closedEarly = false;
  let status = 0;
  let head: OutgoingHttpHeaders | null = null;

  res.once('close', () => {
    if (!res.writableFinished) {
      closedEarly = true;
      controller?.abort(new ClientGone());
    }
    hop.onClose?.();
  });

  // The head leaves with the first body bytes (or the end): until then a failure can still be a 502.
  const sendHead = () => {
    if (res.headersSent || !head) return;
    // As reply-from: a connection whose request body was not read to the end cannot be reused.
    if (!req.complete) head.connection = 'close';
    res.writeHead(status, head);
    head = null;
  };

  const declared = req.headers['content-length'];
  const hasBody = declared !== undefined && declared !== '0';
  pool.dispatch(
    {
      path: hop.url,
      method: req.method as Dispatcher.HttpMethod,
      headers: hop.headers as Record<string, string | string[]>,
      body: hasBody ? req : null,
      headersTimeout: hop.timeoutMs,
      bodyTimeout: hop.timeoutMs,
    },
    {
      onRequestStart(c) {
        controller = c;
        if (closedEarly) c.abort(new ClientGone());
      },
      onResponseStart(_c, statusCode, headers) {
        status = statusCode;
        head = responseHead(headers as ResponseHeaders, hop);
        hop.onHead();
      },
      onResponseData(c, chunk) {
        if (closedEarly) return;
        sendHead();
        if (!res.write(chunk)) {
          c.pause();
          res.once('drain', () => c.resume());
        }
      },
      onResponseEnd() {
        if (closedEarly) return;
        sendHead();
        res.end();
      },
      onResponseError(_c, error) {
        // The client left: logged and counted when its response closed (unfinished.ts).
        if (closedEarly || res.destroyed) return;
        // Cut mid-body: the client's connection is cut too, logged as "answer cut short" (unfinished.ts).
        if (res.headersSent) res.destroy(error);
        else hop.answerError(error as Error & { code?: string });
      },
    },
  );
}
