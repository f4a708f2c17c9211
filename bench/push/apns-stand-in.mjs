// APNs stand-in for the push benchmark, in its own process: HTTP/2 over TLS on 127.0.0.1 with the
// certificate the parent made, every POST /3/device/{token} answered 200 and counted per token.
// The parent asks for the counts over IPC.
import http2 from 'node:http2';

const { KEY, CERT } = process.env;
const counts = new Map();
let total = 0;
const server = http2.createSecureServer({ key: KEY, cert: CERT });
server.on('stream', (stream, headers) => {
  const path = String(headers[':path']);
  const ok = path.startsWith('/3/device/') && String(headers.authorization ?? '').startsWith('bearer ');
  stream.on('data', () => {});
  stream.on('end', () => {
    if (ok) {
      const token = path.slice(10);
      counts.set(token, (counts.get(token) ?? 0) + 1);
      total += 1;
    }
    stream.respond({ ':status': ok ? 200 : 403 });
    stream.end(ok ? undefined : '{"reason":"MissingProviderToken"}');
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'stats') {
    let duplicates = 0;
    for (const n of counts.values()) if (n > 1) duplicates += n - 1;
    process.send({ total, distinct: counts.size, duplicates });
  }
  if (message === 'reset') {
    counts.clear();
    total = 0;
    process.send({ reset: true });
  }
  if (message === 'stop') server.close(() => process.exit(0));
});
