// How long closing an HTTP server may wait for its clients. Node's server.close() waits for every open
// connection to end and Fastify only closes the idle ones, so a client that stops reading a download
// without closing it (or a slow upload) held a process's stop hostage until its socket timed out —
// minutes through the gateway — and the process was then killed by SHUTDOWN_TIMEOUT_MS before its
// store was closed. Requests still running when the grace ends have their connections destroyed.
import type { FastifyInstance } from 'fastify';
import { serviceUnavailable, type AppError } from '@murmur/core';

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

/** What a client is told to wait before trying again when a request arrives during a stop. */
const STOPPING_RETRY_AFTER_SECONDS = 5;

/**
 * Requests that arrive while the app is stopping (on a kept-alive connection, or pipelined behind a
 * running one): Fastify's own answer (`return503OnClosing`) is a generic body without `Retry-After`.
 * Create the app with `return503OnClosing: false` and call this early, after the hook that sets the
 * response's request id: such a request then gets the 503 its area renders for any error, with `Retry-After`, and `Connection:
 * close` (Fastify sets it while closing) so the client's next attempt opens a new connection, which
 * reaches another replica or the restarted process.
 */
export function refuseWhileStopping(app: FastifyInstance): () => boolean {
  let stopping = false;
  app.addHook('preClose', (done) => {
    stopping = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (stopping) return done(stoppingError());
    done();
  });
  return () => stopping;
}

function stoppingError(): AppError {
  return serviceUnavailable(
    'The server is shutting down; try again in a moment.',
    STOPPING_RETRY_AFTER_SECONDS,
  );
}
