import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@murmur/testing';
import {
  IN_PROCESS,
  send,
  startFakeServices,
  startGateway,
  type FakeService,
  type TestGateway,
} from './helpers.js';

describe('when a service cannot answer', () => {
  let services: FakeService[];
  let gateway: TestGateway;
  let closedPort: number;

  beforeAll(async () => {
    services = await startFakeServices(['reader', 'identity', 'feeds']);
    closedPort = await freePort();
    const dead = `http://127.0.0.1:${closedPort}`;
    gateway = await startGateway(
      // microsub, webmention, push and archive are reachable at a closed port; publishing is absent.
      {
        reader: services[0]!.url,
        identity: services[1]!.url,
        feeds: services[2]!.url,
        microsub: dead,
        webmention: dead,
        archive: dead,
        push: dead,
      },
      // undici checks its header timeout on a coarse timer (about half a second): the slow answers
      // below come ten times later than the timeout, so a loaded machine cannot let one through.
      { GATEWAY_UPSTREAM_TIMEOUT_MS: '300' },
    );
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('503 names a service this deployment does not run, in the area’s shape', async () => {
    const res = await send(gateway.url, 'GET', '/media/a/2026/x.png');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ error: 'The publishing service is not running in this deployment.' });
    expect(res.headers['x-request-id']).toBeTruthy();

    const xmlrpc = await send(gateway.url, 'POST', '/xmlrpc', {
      headers: { 'content-type': 'text/xml' },
      body: '<x/>',
    });
    expect(xmlrpc.status).toBe(503);
    expect(xmlrpc.headers['content-type']).toMatch(/^text\/plain/);
    expect(xmlrpc.text).toBe('The publishing service is not running in this deployment.');
  });

  it('502 when the service’s port is closed: {error}, OAuth and text shapes', async () => {
    const push = await send(gateway.url, 'GET', '/users/push/info?push_env=production');
    expect(push.status).toBe(502);
    expect(push.json()).toEqual({ error: 'The push service is not reachable.' });

    const microsub = await send(gateway.url, 'GET', '/microsub?action=channels');
    expect(microsub.status).toBe(502);
    expect(microsub.json()).toEqual({
      error: 'bad_gateway',
      error_description: 'The microsub service is not reachable.',
    });
    // Cross-origin clients can read the failure too.
    expect(microsub.headers['access-control-allow-origin']).toBe('*');

    const wm = await send(gateway.url, 'POST', '/webmention', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'source=a&target=b',
    });
    expect(wm.status).toBe(502);
    expect(wm.headers['content-type']).toMatch(/^text\/plain/);
    expect(wm.text).toBe('The webmention service is not reachable.');
  });

  it('502 when the service drops the connection without answering', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/v2/icons.json', { headers: { 'x-test-reset': '1' } });
    expect(res.status).toBe(502);
    expect(res.json()).toEqual({ status: 502, message: 'The reader service is not reachable.', errors: [] });
  });

  it('502 for a body-carrying request too, and the gateway keeps serving', async () => {
    const res = await send(gateway.url, 'POST', '/imported/archive/17/import', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: [] }),
    });
    expect(res.status).toBe(502);
    expect(res.json()).toEqual({ error: 'The archive service is not reachable.' });
    expect((await send(gateway.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('504 when the service answers after the route timeout: Feedbin shape on /feeds/v2', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/v2/entries.json', {
      headers: { 'x-test-delay-ms': '3000' },
    });
    expect(res.status).toBe(504);
    expect(res.json()).toEqual({
      status: 504,
      message: 'The reader service did not answer in time.',
      errors: [],
    });
  });

  it('504 in the {error} shape elsewhere and the OAuth shape on /indieauth', async () => {
    const feeds = await send(gateway.url, 'GET', '/feeds/ada.json', {
      headers: { 'x-test-delay-ms': '3000' },
    });
    expect(feeds.status).toBe(504);
    expect(feeds.json()).toEqual({ error: 'The feeds service did not answer in time.' });

    const token = await send(gateway.url, 'GET', '/indieauth/token', {
      headers: { 'x-test-delay-ms': '3000' },
    });
    expect(token.status).toBe(504);
    expect(token.json()).toEqual({
      error: 'gateway_timeout',
      error_description: 'The identity service did not answer in time.',
    });
  });

  // The head came in time, the body did not (undici's bodyTimeout over HTTP). Over HTTP the gateway
  // holds the head until the first body bytes, so the client can still be told 504; in process the
  // service's head has already left on the client's connection, which is cut.
  it('a body later than the route timeout: 504 over HTTP, the connection cut in process', async () => {
    let outcome: { status: number; body: unknown } | 'cut';
    try {
      const res = await send(gateway.url, 'GET', '/feeds/ada.json', {
        headers: { 'x-test-body-delay-ms': '3000' },
      });
      outcome = { status: res.status, body: res.json() };
    } catch {
      outcome = 'cut';
    }
    if (IN_PROCESS) expect(outcome).toBe('cut');
    else
      expect(outcome).toEqual({ status: 504, body: { error: 'The feeds service did not answer in time.' } });
  });

  // The timeout bounds the wait between parts of a body, not the whole body: each part starts it again.
  it('a body whose parts each come within the timeout is passed whole, however long it takes', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/ada.json', {
      headers: { 'x-test-body-parts': '8,100' },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('part 1;part 2;part 3;part 4;part 5;part 6;part 7;part 8;');
  });

  it('a service answering within the timeout is passed through', async () => {
    const res = await send(gateway.url, 'GET', '/feeds/v2/entries.json', {
      headers: { 'x-test-delay-ms': '50' },
    });
    expect(res.status).toBe(200);
  });
});
