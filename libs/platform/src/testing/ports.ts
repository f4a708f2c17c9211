import { createServer } from 'node:net';

// Ports are taken below Linux's ephemeral range (32768–60999 by default), which the kernel hands out
// to `listen(0)` and to outgoing connections: a port chosen there and released could be given to
// another test worker's socket before the caller binds it (EADDRINUSE). Below it, only another
// freePort caller could take it, and a random pick among 12,000 makes that rare; each candidate is
// still checked free before it is returned.
const LOW = 20_000;
const HIGH = 32_000;

function tryPort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A TCP port that was free on 127.0.0.1 a moment ago, outside the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await tryPort(port)) return port;
  }
  // Everything tried was taken: let the kernel choose.
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
