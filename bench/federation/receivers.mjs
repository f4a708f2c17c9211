#!/usr/bin/env node
// The other servers of the federation benchmark, in their own process: BENCH_RECEIVERS HTTP servers on
// 127.0.0.1, each a "host" answering 202 to every inbox POST (counting them, and that each carries a
// Signature and a Digest) and serving actor documents `/users/<name>` with one shared public key
// (BENCH_PUBLIC_KEY), for the inbound phase's key fetches. Reports its ports over IPC; answers `count`.
import { createServer } from 'node:http';

const N = Number(process.env.BENCH_RECEIVERS);
const pem = process.env.BENCH_PUBLIC_KEY;
let received = 0;
let unsigned = 0;
const ports = [];
for (let i = 0; i < N; i++) {
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      if (!req.headers.signature || !req.headers.digest) unsigned++;
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(202).end();
      });
      return;
    }
    const m = /^\/users\/([a-z0-9]+)$/.exec(req.url ?? '');
    if (!m) return res.writeHead(404).end();
    const id = `http://127.0.0.1:${server.address().port}/users/${m[1]}`;
    res.writeHead(200, { 'content-type': 'application/activity+json' }).end(
      JSON.stringify({
        id,
        type: 'Person',
        preferredUsername: m[1],
        inbox: `${id}/inbox`,
        publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: pem },
      }),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push(server.address().port);
}
process.on('message', (message) => {
  const type = typeof message === 'string' ? message : message.type;
  if (type === 'count') process.send({ count: { received, unsigned } });
  if (type === 'stop') process.send({ stopped: true }, () => process.exit(0));
});
process.send({ ports });
