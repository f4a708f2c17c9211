// Closing an app waits for running requests, but not for ever: a client that stops reading a download
// without closing its connection used to hold close() until its socket timed out (minutes), so the
// process was killed by SHUTDOWN_TIMEOUT_MS before its store was closed. Now the connections still
// open after half of SHUTDOWN_TIMEOUT_MS are destroyed (libs/http/src/shutdown.ts), while a
// request that finishes within that grace is answered in full.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { buildApp, sleep } from './helpers.js';

let app: FastifyInstance | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await app?.close();
  app = undefined;
});

/** A raw client: sends `GET path`, reads the first chunk of the answer, then stops reading (socket open). */
function stalledClient(path: string): { socket: Socket; ended: Promise<string>; firstBytes: Promise<void> } {
  const { port } = app!.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  let text = '';
  const firstBytes = new Promise<void>((resolve) =>
    socket.once('data', (chunk: Buffer) => {
      text += chunk.toString('latin1', 0, 200);
      // Stop reading: the server's writes fill the socket's buffers and then wait.
      socket.pause();
      resolve();
    }),
  );
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  return { socket, ended, firstBytes };
}

/**
 * Starts `app` with `GET /slow` (answers `{done: true}` after `ms`) and `GET /quick`, and a grace of 1 s;
 * `running` settles once `/slow` has started.
 */
async function slowApp(ms: number): Promise<{ app: FastifyInstance; running: Promise<void> }> {
  let entered!: () => void;
  const running = new Promise<void>((resolve) => (entered = resolve));
  ({ app } = await buildApp(
    (scope) => {
      scope.get('/slow', async () => {
        entered();
        await sleep(ms);
        return { done: true };
      });
      scope.get('/quick', async () => ({ quick: true }));
    },
    { config: { SHUTDOWN_TIMEOUT_MS: 2_000 } },
  ));
  return { app, running };
}

describe('closing an app with requests still running', () => {
  it('destroys a stalled download’s connection after half of SHUTDOWN_TIMEOUT_MS, and close() returns', async () => {
    ({ app } = await buildApp(
      (scope) => {
        scope.get('/endless', (_req, reply) => {
          const endless = new Readable({ read: () => void endless.push(Buffer.alloc(64 * 1024, 0x61)) });
          return reply.type('text/plain').send(endless);
        });
      },
      { config: { SHUTDOWN_TIMEOUT_MS: 600 } },
    ));
    const client = stalledClient('/endless');
    await client.firstBytes;
    const closing = app.close();
    const outcome = await Promise.race([
      closing.then(() => 'closed'),
      sleep(10_000).then(() => 'still open after 10 s'),
    ]);
    expect(outcome).toBe('closed');
    app = undefined;
    // The client, reading again, gets what was sent and then the end of the connection.
    client.socket.resume();
    expect(await client.ended).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers a request that finishes within the grace in full', async () => {
    const { app: slow, running } = await slowApp(150);
    const { port } = slow.server.address() as AddressInfo;
    const answer = fetch(`http://127.0.0.1:${port}/slow`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as unknown,
    }));
    await running;
    await slow.close();
    app = undefined;
    expect(await answer).toEqual({ status: 200, body: { done: true } });
  });

  it('answers a request that arrives during the stop with the area’s 503, Retry-After and Connection: close', async () => {
    const { app: slow, running } = await slowApp(200);
    const { port } = slow.server.address() as AddressInfo;
    // Two pipelined requests on one connection: the second is read while the first runs, after the
    // stop has begun, as a keep-alive client's next request can be.
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await running;
    const closing = slow.close();
    socket.write('GET /quick HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await closing;
    app = undefined;
    await ended;

    const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toContain('{"done":true}');
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    // The platform's error shape, with a message that says what is going on — not Fastify's generic one.
    expect(body).not.toHaveProperty('statusCode');
    expect(JSON.stringify(body)).toMatch(/shutting down/);
  });
});
