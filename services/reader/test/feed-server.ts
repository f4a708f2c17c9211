// A local feed server on 127.0.0.1 for the reader's tests: serves the fixtures, and any path can be
// given another answer (status, headers, body, delay) at run time. It records every request.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

const TYPES: Record<string, string> = {
  xml: 'application/xml; charset=utf-8',
  json: 'application/feed+json',
  html: 'text/html; charset=utf-8',
};

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Milliseconds before answering. */
  delayMs?: number;
}

export type Responder = Answer | ((req: { headers: IncomingHttpHeaders; path: string }) => Answer);

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FeedServer {
  origin: string;
  host: string;
  url(path: string): string;
  /** Answer `path` with `responder` from now on. */
  set(path: string, responder: Responder): void;
  requests: SeenRequest[];
  hits(path: string): number;
  /** The most requests this server handled at the same time. */
  maxConcurrent(): number;
  close(): Promise<void>;
}

/** Fixture files are served at `/<name>` (unless `fixtures` is false); other paths are 404 until `set`. */
export async function startFeedServer(options: { fixtures?: boolean } = {}): Promise<FeedServer> {
  const serveFixtures = options.fixtures ?? true;
  const routes = new Map<string, Responder>();
  const requests: SeenRequest[] = [];
  let active = 0;
  let peak = 0;
  const answer = (res: ServerResponse, a: Answer) => {
    res.writeHead(a.status ?? 200, a.headers ?? {});
    res.end(a.status === 304 ? undefined : a.body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
  });
  const handle = (path: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse) => {
    requests.push({ path, headers, body });
    active++;
    peak = Math.max(peak, active);
    res.on('close', () => active--);
    const responder = routes.get(path);
    let a: Answer;
    if (responder) a = typeof responder === 'function' ? responder({ headers, path }) : responder;
    else {
      const name = path.slice(1).split('?')[0]!;
      try {
        if (!serveFixtures) throw new Error('fixtures are off');
        a = {
          body: fixture(name),
          headers: { 'content-type': TYPES[name.split('.').pop()!] ?? 'text/plain' },
        };
      } catch {
        a = { status: 404, body: 'not found', headers: { 'content-type': 'text/plain' } };
      }
    }
    if (a.delayMs) setTimeout(() => answer(res, a), a.delayMs);
    else answer(res, a);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    host: `127.0.0.1:${port}`,
    url: (path) => `${origin}${path}`,
    set: (path, responder) => routes.set(path, responder),
    requests,
    hits: (path) => requests.filter((r) => r.path === path).length,
    maxConcurrent: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An RSS 2.0 document with `count` items numbered from `from` (newest first). */
export function rssWithItems(
  title: string,
  items: Array<{ guid: string; title: string; date?: string }>,
): string {
  const body = items
    .map(
      (i) =>
        `<item><title>${i.title}</title><guid>${i.guid}</guid><link>/posts/${i.guid}</link>` +
        `${i.date ? `<pubDate>${i.date}</pubDate>` : ''}<description>&lt;p&gt;${i.title} body.&lt;/p&gt;</description></item>`,
    )
    .join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>/</link>${body}</channel></rss>`;
}
