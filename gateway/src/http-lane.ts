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

/** One pool per service, as the route's proxy keeps one per upstream. */
export function servicePool(url: string): Pool {
  return new Pool(url, {
    connections: 128,
    pipelining: 1,
    // An https service must present a valid certificate (reply-from would turn the check off).
    connect: { rejectUnauthorized: true },
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
