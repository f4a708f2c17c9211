#!/usr/bin/env node
// The subscribers of the websub benchmark, in their own process: BENCH_RECEIVERS HTTP servers on
// 127.0.0.1, each a callback host answering 200 to every delivery POST, counting them and those that
// carry an X-Hub-Signature and the hub's Link header. Reports its ports over IPC; answers `count`.
import { createServer } from 'node:http';

const N = Number(process.env.BENCH_RECEIVERS);
let received = 0;
let signed = 0;
let linked = 0;
const ports = [];
for (let i = 0; i < N; i++) {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(404).end();
    if (String(req.headers['x-hub-signature'] ?? '').startsWith('sha256=')) signed++;
    if (String(req.headers.link ?? '').includes('rel="hub"')) linked++;
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push(server.address().port);
}
process.on('message', (message) => {
  const type = typeof message === 'string' ? message : message.type;
  if (type === 'count') process.send({ count: { received, signed, linked } });
  if (type === 'stop') process.send({ stopped: true }, () => process.exit(0));
});
process.send({ ports });
