// Stopping the gateway while a client holds a download open without reading it: the gateway's close()
// used to wait for that connection until its socket timed out (several minutes through the proxy,
// 30 s handed to a service in the process), past SHUTDOWN_TIMEOUT_MS, so the process was killed before
// its services closed their stores. Now connections still open after half of SHUTDOWN_TIMEOUT_MS
// are destroyed (libs/http/src/shutdown.ts), through the proxy and in the process alike.
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from '@jest/globals';
import fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '@murmur/core';
import { testLogger } from '@murmur/testing';
import { createGatewayServers, gatewayConfigSchema } from '../src/index.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Asks for `path`, reads the first chunk of the answer, then stops reading with the socket open. */
async function stallDownload(url: string, path: string): Promise<{ socket: Socket; ended: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  const head = await new Promise<string>((resolve) =>
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(chunk.toString('latin1', 0, 100));
    }),
  );
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(head)));
  return { socket, ended };
}

describe.each([
  ['through the proxy', false],
  ['handed to a service in the process', true],
])('closing the gateway with a stalled download %s', (_how, inProcess) => {
  let archive: FastifyInstance;
  const sockets: Socket[] = [];

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await archive?.close();
  });

  it('destroys the connection after half of SHUTDOWN_TIMEOUT_MS, and close() returns', async () => {
    archive = fastify();
    archive.get('/imported/archive/:site/years.json', (_req, reply) => {
      const endless = new Readable({ read: () => void endless.push(Buffer.alloc(64 * 1024, 0x61)) });
      return reply.type('text/plain').send(endless);
    });
    const archiveUrl = inProcess
      ? 'http://127.0.0.1:9'
      : await archive.listen({ port: 0, host: '127.0.0.1' });
    if (inProcess) await archive.ready();
    const config = loadConfig(gatewayConfigSchema, {
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      SHUTDOWN_TIMEOUT_MS: '600',
    });
    const { app, internal } = await createGatewayServers({
      config,
      targets: { archive: archiveUrl },
      ...(inProcess ? { inProcess: { archive } } : {}),
      logger: testLogger(),
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = await stallDownload(url, '/imported/archive/1/years.json');
    sockets.push(client.socket);

    const outcome = await Promise.race([
      Promise.all([app.close(), internal.close()]).then(() => 'closed'),
      sleep(15_000).then(() => 'still open after 15 s'),
    ]);
    expect(outcome).toBe('closed');
    client.socket.resume();
    expect(await client.ended).toMatch(/^HTTP\/1\.1 200 /);
  });
});
