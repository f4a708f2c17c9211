// A client that hangs up before its answer is complete (a tab closed, a load generator stopping) is
// ordinary traffic, not a fault of the gateway or of the service: it must not be logged as an error
// ("gateway error") or a warning ("service did not answer"), nor counted as an upstream error, which is
// what an operator's alerting watches. The request still gets its one log line, and the metrics count
// it under nginx's 499 ("client closed request").
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@murmur/core';
import {
  IN_PROCESS,
  startFakeServices,
  startGateway,
  targetsOf,
  type FakeService,
  type TestGateway,
} from './helpers.js';

interface Line {
  level: string;
  msg: string;
  requestId?: string;
  [key: string]: unknown;
}

describe('a client gone before its answer', () => {
  let services: FakeService[];
  let gateway: TestGateway;
  const lines: Line[] = [];

  beforeAll(async () => {
    services = await startFakeServices(['feeds', 'webmention']);
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Line);
        done();
      },
    });
    gateway = await startGateway(
      targetsOf(services),
      {},
      { logger: createLogger({ service: 'gateway', level: 'info', destination }) },
    );
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  /**
   * Sends a request and destroys the connection once the service has received it, answered or not
   * (a fixed wait raced a loaded machine, where the request could still be on its way to the service).
   */
  function leaveEarly(
    method: string,
    path: string,
    headers: Record<string, string>,
    service: FakeService,
    body?: string,
  ): Promise<void> {
    const { port } = new URL(gateway.url);
    const arrived = service.nextArrival();
    return new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: Number(port),
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(body.length) },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end(body);
      void arrived.then(() => req.destroy());
    });
  }

  /** Waits (up to 10 s) until the gateway has logged `msg` for `requestId`, then a moment for stragglers. */
  async function logged(requestId: string, msg: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!lines.some((l) => l.requestId === requestId && l.msg === msg) && Date.now() < deadline)
      await sleep(20);
    await sleep(100);
  }

  async function metricsText(): Promise<string> {
    return (await fetch(`${gateway.internalUrl}/metrics`)).text();
  }

  const cases = [
    {
      name: 'a POST left while its body is on the way',
      method: 'POST',
      path: '/webmention',
      service: 'webmention',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-test-body-delay-ms': '1000' },
      body: 'source=https%3A%2F%2Fa.example%2F&target=https%3A%2F%2Fb.example%2F',
    },
    {
      name: 'a GET left while its body is on the way',
      method: 'GET',
      path: '/feeds/ada.json',
      service: 'feeds',
      headers: { 'x-test-body-delay-ms': '1000' },
    },
    {
      name: 'a GET left before the service answered at all',
      method: 'GET',
      path: '/feeds/ada.json',
      service: 'feeds',
      headers: { 'x-test-delay-ms': '1000' },
    },
  ] as const;

  it.each(cases)('$name: one info line, no error or warning, counted as 499', async (c) => {
    const requestId = `client-gone-${cases.indexOf(c)}`;
    const before = await metricsText();
    await leaveEarly(
      c.method,
      c.path,
      { ...c.headers, 'x-request-id': requestId },
      services.find((s) => s.name === c.service)!,
      'body' in c ? c.body : undefined,
    );
    await logged(requestId, 'client closed the connection');

    const mine = lines.filter((l) => l.requestId === requestId);
    expect(mine.filter((l) => l.level !== 'info' && l.level !== 'debug')).toEqual([]);
    const closed = mine.filter((l) => l.msg === 'client closed the connection');
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ upstream: c.service, req: { method: c.method } });
    expect(mine.filter((l) => l.msg === 'request completed')).toEqual([]);

    const after = await metricsText();
    const count = (text: string, series: string) =>
      Number(text.match(new RegExp(`^${series.replace(/[{}"=,]/g, '\\$&')} (\\d+)$`, 'm'))?.[1] ?? 0);
    const gone = `gateway_requests_total{service="${c.service}",status="499"}`;
    expect(count(after, gone) - count(before, gone)).toBe(1);
    expect(after).not.toContain(`gateway_upstream_errors_total{service="${c.service}"`);
  });

  it('a service that breaks off after its head is its fault: a warning, never a 499 or a gateway error', async () => {
    const requestId = 'cut-short';
    const before = await metricsText();
    const { port } = new URL(gateway.url);
    // Proxied, the head has not reached the client yet (the gateway writes it with the first body
    // bytes): the client gets the proxy's 502. In process the service answers on the client's own
    // connection, whose head has left: the connection is cut.
    const seen = await new Promise<number | 'cut'>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: Number(port),
        path: '/feeds/ada.json',
        headers: { 'x-request-id': requestId, 'x-test-body-delay-ms': '100', 'x-test-body-broken': '1' },
      });
      req.on('response', (res) => {
        res.on('error', () => resolve('cut'));
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.resume();
      });
      req.on('error', () => resolve('cut'));
      req.end();
    });
    await logged(requestId, IN_PROCESS ? 'answer cut short' : 'request completed');
    const mine = lines.filter((l) => l.requestId === requestId);
    expect(mine.filter((l) => l.level !== 'info' && l.level !== 'warn')).toEqual([]);
    const after = await metricsText();
    const gone = 'gateway_requests_total{service="feeds",status="499"} 2';
    expect(before).toContain(gone);
    expect(after).toContain(gone);
    if (IN_PROCESS) {
      expect(seen).toBe('cut');
      expect(mine).toEqual([
        expect.objectContaining({
          level: 'warn',
          msg: 'answer cut short',
          res: { statusCode: 200 },
        }),
      ]);
    } else {
      expect(seen).toBe(502);
      expect(mine.map((l) => [l.level, l.msg])).toEqual([
        ['warn', 'service did not answer'],
        ['info', 'request completed'],
      ]);
      expect(after).toContain('gateway_upstream_errors_total{service="feeds",kind="unreachable"} 1');
    }
  });

  it('a service that breaks off mid-body: the client’s connection is cut, a warning, never a 499', async () => {
    const requestId = 'cut-mid-body';
    const before = await metricsText();
    const { port } = new URL(gateway.url);
    const seen = await new Promise<{ status: number; text: string; cut: boolean }>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: Number(port),
        path: '/feeds/ada.json',
        headers: {
          'x-request-id': requestId,
          'x-test-body-first': '1',
          'x-test-body-delay-ms': '100',
          'x-test-body-broken': '1',
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, text, cut: true }));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, cut: false }));
      });
      req.on('error', () => resolve({ status: 0, text: '', cut: true }));
      req.end();
    });
    await logged(requestId, 'answer cut short');
    expect(seen).toEqual({ status: 200, text: 'first part;', cut: true });
    const mine = lines.filter((l) => l.requestId === requestId);
    expect(mine).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'answer cut short', res: { statusCode: 200 } }),
    ]);
    const gone = 'gateway_requests_total{service="feeds",status="499"} 2';
    expect(before).toContain(gone);
    expect(await metricsText()).toContain(gone);
  });

  it('still serves the next request on a new connection', async () => {
    const next = await fetch(`${gateway.url}/feeds/ada.json`, { headers: { 'x-test-body-delay-ms': '50' } });
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('late body');
  });
});
