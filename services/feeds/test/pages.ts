// A local web server on 127.0.0.1 serving fixed pages, for the fetch jobs (never the internet).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Page {
  type: string;
  body: string | Buffer;
  status?: number;
}

export interface PageServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startPageServer(pages: Record<string, Page>, host = '127.0.0.1'): Promise<PageServer> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const page = pages[req.url ?? ''];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const ARTICLE_HTML = `<!doctype html><html><head><title>Engines of the Past | News</title>
<meta property="og:site_name" content="News"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Engines of the Past</h1>
<p>The analytical engine was designed by Charles Babbage in the nineteenth century, and it was the first
design for a general-purpose computer. Ada Lovelace wrote what is considered the first program for it.</p>
<p>Its design included an arithmetic logic unit, control flow in the form of conditional branching and
loops, and integrated memory, making it the first design for a general-purpose computer that could be
described in modern terms as Turing-complete.</p>
<p>Babbage was never able to complete construction of any of his machines due to conflicts with his chief
engineer and inadequate funding. <a href="/more">Read more about it</a>.</p>
<script>alert('x')</script><img src="/engine.png" onerror="alert(1)">
<p>It was not until 1941 that the first general-purpose computer was actually built, more than a century after
Babbage had proposed the analytical engine in 1837. The story of the engine is the story of ambition.</p>
</article><footer>Copyright News</footer></body></html>`;
