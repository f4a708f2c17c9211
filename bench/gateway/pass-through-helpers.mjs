#!/usr/bin/env node
// The processes pass-through.mjs measures besides the gateway, one per run of this file, chosen by ROLE:
// - `upstream`: answers every GET with BYTES bytes of JSON and the headers the reader sends with an
//   entries page (its content is fixed: only the bytes' way through the proxies is measured);
// - `undici`: a bare proxy to UPSTREAM_URL with undici's Pool.dispatch, the body passed on chunk by
//   chunk with backpressure (what the gateway's fast lane does, gateway/src/http-lane.ts, without its
//   routing, limits, header rewriting, metrics and logs);
// - `node`: the same with node:http's request and `pipe`.
// Each listens on 127.0.0.1:PORT and prints one line when it does.
import { Agent, createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { ROLE, PORT, UPSTREAM_URL = '', BYTES = '145183' } = process.env;

function upstream() {
  const body = Buffer.from(JSON.stringify('x'.repeat(Number(BYTES) - 2)));
  const link = '<http://127.0.0.1/feeds/v2/entries.json?page=2&per_page=100>';
  const head = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    etag: 'W/"a1b2c3d4e5f6"',
    'last-modified': new Date(0).toUTCString(),
    'x-feedbin-record-count': '150',
    links: `${link}; rel="next", ${link}; rel="last"`,
    link: `${link}; rel="next", ${link}; rel="last"`,
  };
  return createServer((req, res) => {
    res.writeHead(200, head);
    res.end(body);
  });
}

function undiciProxy() {
  // undici is the gateway's dependency: loaded from there, as the gateway loads it.
  const { Pool } = createRequire(join(root, 'gateway/package.json'))('undici');
  const pool = new Pool(UPSTREAM_URL, { connections: 128, pipelining: 1 });
  return createServer((req, res) => {
    let status = 0;
    let head = null;
    // A client that leaves aborts its request to the upstream, as any proxy must: without it a request
    // paused on the client's full socket (write() false, no 'drain' once it is destroyed) held its pool
    // connection for ever, and after a few runs of wrk, whose clients leave mid-request when a run
    // ends, all 128 were held and the proxy answered nothing (2026-11-30).
    let controller = null;
    let gone = false;
    res.once('close', () => {
      if (res.writableFinished) return;
      gone = true;
      controller?.abort(new Error('the client left'));
    });
    const sendHead = () => {
      if (head) res.writeHead(status, head);
      head = null;
    };
    pool.dispatch(
      { path: req.url, method: req.method, headers: req.headers },
      {
        onRequestStart(c) {
          controller = c;
          if (gone) c.abort(new Error('the client left'));
        },
        onResponseStart(_c, statusCode, headers) {
          status = statusCode;
          head = headers;
        },
        onResponseData(c, chunk) {
          if (gone) return;
          sendHead();
          if (!res.write(chunk)) {
            c.pause();
            res.once('drain', () => c.resume());
          }
        },
        onResponseEnd() {
          sendHead();
          res.end();
        },
        onResponseError(_c, err) {
          res.destroy(err);
        },
      },
    );
  });
}

function nodeProxy() {
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  return createServer((req, res) => {
    const out = httpRequest(`${UPSTREAM_URL}${req.url}`, { agent, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (err) => res.destroy(err));
    out.end();
  });
}

const make = { upstream, undici: undiciProxy, node: nodeProxy }[ROLE];
if (!make) throw new Error(`ROLE must be upstream, undici or node, not ${ROLE}`);
const server = make();
server.listen(Number(PORT), '127.0.0.1', () => process.stdout.write(`${ROLE} listening on ${PORT}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
