// A client_id on 127.0.0.1, [::1] or localhost runs on the person's machine: identity never fetches
// it (IndieAuth "Client Information Discovery"), and only same-origin redirects are possible for it.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { Harness } from './harness.js';
import { screen, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
let server: Server;
let port = 0;
let requests = 0;
beforeAll(async () => {
  // A client page that would publish a cross-host redirect, if anyone asked for it.
  server = createServer((_req, res) => {
    requests++;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<link rel="redirect_uri" href="https://cb.test/x">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  h = await startIndieAuthIdentity();
});
afterAll(async () => {
  await h.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('GET /indieauth/auth with a loopback client_id', () => {
  test('127.0.0.1: the screen opens for a same-origin redirect, and no request reaches the client', async () => {
    const clientId = `http://127.0.0.1:${port}/`;
    const res = await screen(h, { client_id: clientId, redirect_uri: `http://127.0.0.1:${port}/callback` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(clientId);
    expect(requests).toBe(0);
  });

  test('127.0.0.1: a cross-host redirect the page would publish is refused, still without a request', async () => {
    const res = await screen(h, {
      client_id: `http://127.0.0.1:${port}/`,
      redirect_uri: 'https://cb.test/x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(requests).toBe(0);
  });

  test('[::1] and localhost are loopback too', async () => {
    for (const clientId of [`http://[::1]:${port}/`, `http://localhost:${port}/`]) {
      const res = await screen(h, { client_id: clientId, redirect_uri: `${clientId}cb` });
      expect(res.statusCode).toBe(200);
    }
    expect(requests).toBe(0);
  });
});
