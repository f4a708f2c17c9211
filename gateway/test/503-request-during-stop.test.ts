// A request that reaches the gateway while it stops (the next request on a kept-alive connection, or
// one pipelined behind a running request) gets the area's 503 with Retry-After and Connection: close,
// so the client retries on a new connection — another replica, or the restarted process — instead of
// Fastify's generic 503 body without Retry-After. Through the proxy and in process alike.
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from '@jest/globals';
import { startFakeServices, startGateway, targetsOf, type FakeService } from './helpers.js';

describe.each([
  ['through the proxy', false],
  ['in process', true],
])('a request arriving while the gateway stops (%s)', (_how, inProcess) => {
  let services: FakeService[];

  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
  });

  it('is answered 503 in the area’s shape, with Retry-After and Connection: close', async () => {
    services = await startFakeServices(['feeds']);
    const gateway = await startGateway(targetsOf(services), {}, { inProcess });
    const { port } = new URL(gateway.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // The stop begins only once the first request has reached the service (a fixed wait raced a loaded
    // machine: the first request itself arrived after the stop began), and that request is held long
    // enough for the second to arrive while it still runs.
    const arrived = services[0]!.nextArrival();
    socket.write('GET /feeds/ada.json HTTP/1.1\r\nHost: 127.0.0.1\r\nx-test-delay-ms: 1500\r\n\r\n');
    await arrived;
    const closing = gateway.close();
    socket.write('GET /feeds/ada.json HTTP/1.1\r\nHost: 127.0.0.1\r\nx-request-id: during-stop\r\n\r\n');
    await closing;
    await ended;

    const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toMatch(/\r\nx-request-id: during-stop\r\n/i);
    const body = JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toEqual({ error: expect.stringMatching(/shutting down/) });
  });
});
