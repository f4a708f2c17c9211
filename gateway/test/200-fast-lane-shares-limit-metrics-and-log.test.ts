// The single process's fast lane (gateway/src/fast-lane.ts) answers plain requests without the
// gateway's own Fastify lifecycle. What the route does around a request must still happen once: the
// per-IP allowance is one counter whichever way a request takes, the metrics count it, and the request
// log has its line (with secrets in the URL redacted).
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, loadConfig } from '@murmur/core';
import { createGatewayServers, gatewayConfigSchema } from '../src/index.js';
import { inProcessOf, send, startFakeServices, targetsOf, type FakeService } from './helpers.js';

describe('the fast lane', () => {
  let services: FakeService[];
  let url: string;
  let internalUrl: string;
  let close: () => Promise<void>;
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];

  beforeAll(async () => {
    services = await startFakeServices(['feeds', 'identity', 'reader']);
    const targets = targetsOf(services);
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (!line) continue;
          raw.push(line);
          lines.push(JSON.parse(line));
        }
        done();
      },
    });
    const config = loadConfig(gatewayConfigSchema, { GATEWAY_RATE_LIMIT_PER_MINUTE: '4' });
    const { app, internal } = await createGatewayServers({
      config,
      targets,
      inProcess: inProcessOf(targets),
      logger: createLogger({ service: 'gateway', level: 'info', destination }),
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    internalUrl = await internal.listen({ port: 0, host: '127.0.0.1' });
    close = async () => {
      await Promise.all([app.close(), internal.close()]);
    };
  });

  afterAll(async () => {
    await close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('logs each request once, with the service, status and a redacted URL', async () => {
    const res = await send(url, 'GET', '/feeds/ada.json?access_token=very-secret-token', {
      headers: { 'x-request-id': 'lane-log-1' },
    });
    expect(res.status).toBe(200);
    const mine = lines.filter((l) => l.requestId === 'lane-log-1' && l.msg === 'request completed');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      service: 'gateway',
      upstream: 'feeds',
      res: { statusCode: 200 },
      req: { method: 'GET' },
    });
    expect(JSON.stringify(mine[0])).not.toContain('very-secret-token');
    // One key per name: log stores such as Elasticsearch refuse a line that repeats one.
    const line = raw.find((l) => l.includes('"lane-log-1"') && l.includes('request completed'))!;
    expect(line.match(/"service":/g)).toHaveLength(1);
  });

  it('counts requests and upstream latency in the metrics', async () => {
    await send(url, 'GET', '/account/me');
    const metrics = await send(internalUrl, 'GET', '/metrics');
    expect(metrics.text).toContain('gateway_requests_total{service="identity",status="200"} 1');
    expect(metrics.text).toContain('gateway_upstream_duration_seconds_count{service="identity"} 1');
  });

  it('spends one allowance with the route: requests either way count once, the next gets the 429', async () => {
    // The two requests above were the first two of four. A chunked body takes the route (its
    // length must be counted as it passes); a plain GET takes the lane.
    const chunked = await send(url, 'POST', '/feeds/v2/subscriptions.json', {
      body: Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]),
    });
    expect(chunked.status).toBe(200);
    expect((await send(url, 'GET', '/feeds/ada.json')).status).toBe(200);

    const over = await send(url, 'GET', '/feeds/ada.json');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.headers['x-ratelimit-limit']).toBe('4');
    expect(over.json()).toEqual({ error: expect.any(String) });
    // Over the allowance, the route answers: the request never reached the service.
    expect(
      lines.some(
        (l) => l.msg === 'request completed' && (l.res as { statusCode: number }).statusCode === 429,
      ),
    ).toBe(true);
  });
});
