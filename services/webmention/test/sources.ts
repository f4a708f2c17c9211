// A local web server standing in for the sites that send and receive webmentions: every test sets the
// answer of a path (status, headers, body, delay) and reads which requests arrived. It answers for any
// host name; the harness resolves `*.example` to 127.0.0.1 and allows exactly those names.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering (slow sources). */
  delayMs?: number;
}

export interface Received {
  method: string;
  host: string;
  path: string;
  body: string;
  headers: IncomingMessage['headers'];
}

export interface SourceServer {
  port: number;
  /** `http://{host}:{port}{path}` */
  url(host: string, path: string): string;
  set(host: string, path: string, answer: Answer | ((req: Received) => Answer)): void;
  html(host: string, path: string, html: string, status?: number): void;
  requests: Received[];
  close(): Promise<void>;
}

export async function startSourceServer(): Promise<SourceServer> {
  const routes = new Map<string, Answer | ((req: Received) => Answer)>();
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const received: Received = {
        method: req.method ?? 'GET',
        host,
        path: req.url ?? '/',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      };
      requests.push(received);
      const route = routes.get(`${host}${received.path}`);
      const answer =
        typeof route === 'function' ? route(received) : (route ?? { status: 404, body: 'not found' });
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, {
          'content-type': 'text/html; charset=utf-8',
          ...answer.headers,
        });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (host, path) => `http://${host}:${port}${path}`,
    set: (host, path, answer) => routes.set(`${host}${path}`, answer),
    html: (host, path, html, status = 200) => routes.set(`${host}${path}`, { status, body: html }),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
