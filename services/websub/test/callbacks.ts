// Subscriber stand-ins for the hub's tests: an HTTP server on 127.0.0.1 that answers the hub's
// verification GETs (echoing the challenge, or not) and records every delivery POST, answering each
// with the next status of a script (default 200).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Verification {
  path: string;
  mode: string | null;
  topic: string | null;
  challenge: string | null;
  leaseSeconds: string | null;
  query: URLSearchParams;
}

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface CallbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  host: string;
  verifications: Verification[];
  deliveries: Delivery[];
  /** How GETs are answered: echo the challenge (default), answer another body, or a status. */
  verifyWith: 'echo' | 'wrong' | number;
  /** Statuses the next POSTs get, in order; then 200. */
  statuses: number[];
  /** Documents served at a path (an external publisher's topics), with their Content-Type. */
  topics: Map<string, { type: string; body: string }>;
  deliveriesTo(path: string): Delivery[];
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const cb: Omit<CallbackServer, 'url' | 'host' | 'close'> = {
    verifications: [],
    deliveries: [],
    verifyWith: 'echo',
    statuses: [],
    topics: new Map(),
    deliveriesTo: (path) => cb.deliveries.filter((d) => d.path === path),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const topic = cb.topics.get(url.pathname);
      if (req.method === 'GET' && topic) {
        res.writeHead(200, { 'content-type': topic.type }).end(topic.body);
        return;
      }
      if (req.method === 'GET') {
        const q = url.searchParams;
        cb.verifications.push({
          path: url.pathname,
          mode: q.get('hub.mode'),
          topic: q.get('hub.topic'),
          challenge: q.get('hub.challenge'),
          leaseSeconds: q.get('hub.lease_seconds'),
          query: q,
        });
        if (typeof cb.verifyWith === 'number') {
          res.writeHead(cb.verifyWith).end('no');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(cb.verifyWith === 'echo' ? (q.get('hub.challenge') ?? '') : 'something else');
        return;
      }
      cb.deliveries.push({ path: url.pathname, headers: req.headers, body: Buffer.concat(chunks) });
      const status = cb.statuses.shift() ?? 200;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(cb as CallbackServer, {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
