import { createServer } from 'node:net';

// Ports are taken below Linux's ephemeral range (32768–60999 by default), which the kernel hands out
// to `listen(0)` and to outgoing connections: a port chosen there and released could be given to
// another test worker's socket before the caller binds it (EADDRINUSE). Below it, only another
// freePort caller could take it, and two rules keep those apart:
// - each jest worker draws from a slice of its own (JEST_WORKER_ID), so two workers never pick the
//   same port however long their callers take to bind it;
// - within a test file, ports are handed out in turn from a random start, none twice before the slice's
//   3,000 have all been, so two services given ports before either listens cannot both get one.
//   (Random picks did collide: a multi-process test's service found its port taken while the suite
//   ran on two workers.)
// Each candidate is still checked free before it is returned.
const LOW = 20_000;
const HIGH = 32_000;
/** Slices of the range, one per jest worker (jest.config.mjs runs 2; more share slices round-robin). */
const SLICES = 4;

function sliceOfThisWorker(): { low: number; size: number } {
  const worker = Number(process.env.JEST_WORKER_ID);
  if (!Number.isInteger(worker) || worker < 1) return { low: LOW, size: HIGH - LOW };
  const size = Math.floor((HIGH - LOW) / SLICES);
  return { low: LOW + ((worker - 1) % SLICES) * size, size };
}

const slice = sliceOfThisWorker();
let next = Math.floor(Math.random() * slice.size);

function tryPort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A TCP port that was free on 127.0.0.1 a moment ago, outside the kernel's ephemeral range, in this
 * jest worker's slice, and not among the last 3,000 this module instance returned (each test file has
 * its own instance).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = slice.low + (next % slice.size);
    next++;
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
