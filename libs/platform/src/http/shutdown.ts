// How long closing an HTTP server may wait for its clients. Node's server.close() waits for every open
// connection to end and Fastify only closes the idle ones, so a client that stops reading a download
// without closing it (or a slow upload) held a process's stop hostage until its socket timed out —
// minutes through the gateway — and the process was then killed by SHUTDOWN_TIMEOUT_MS before its
// store was closed. Requests still running when the grace ends have their connections destroyed.
import type { FastifyInstance } from 'fastify';

/** The share of SHUTDOWN_TIMEOUT_MS that open requests get; the rest is for jobs, bus and store. */
export function connectionGraceMs(shutdownTimeoutMs: number): number {
  return Math.floor(shutdownTimeoutMs / 2);
}

/**
 * Once `app.close()` starts, a connection is closed as soon as its request is answered (Node closes
 * only those idle when close() is called, so a keep-alive client answered during the stop kept its
 * connection open), and connections still open after `graceMs` are destroyed.
 */
export function closeConnectionsAfter(app: FastifyInstance, graceMs: number): void {
  app.addHook('preClose', (done) => {
    const server = app.server;
    const idle = setInterval(() => server.closeIdleConnections(), IDLE_CHECK_MS);
    const grace = setTimeout(() => server.closeAllConnections(), graceMs);
    // Never what keeps a process alive.
    idle.unref();
    grace.unref();
    server.once('close', () => {
      clearInterval(idle);
      clearTimeout(grace);
    });
    done();
  });
}

const IDLE_CHECK_MS = 25;
