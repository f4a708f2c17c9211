import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Bus } from '@murmur/bus';
import { busHeaders } from '../src/app.js';
import { markHandedOver, markInjected } from '../src/hand-off-response.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send, sleep } from './helpers.js';

const apps: FastifyInstance[] = [];
async function track<T extends { app: FastifyInstance }>(built: Promise<T>): Promise<T> {
  const b = await built;
  apps.push(b.app);
  return b;
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const echoId = (scope: FastifyInstance) =>
  defineRoute(scope, {
    method: 'GET',
    url: '/id',
    handler: async ({ request }) => ({ id: request.id, headers: busHeaders(request) }),
  });

describe('request id', () => {
  it('keeps the id of a request handed over in process and leaves its log line to the gateway; checks and logs every other', async () => {
    const { app, lines } = await track(buildApp(echoId));
    // What the gateway does in one process: the client's request handed to the service's router.
    const ids: string[] = [];
    const front = createServer((req, res) => {
      const given = req.headers['x-request-id'];
      if (given === 'made by the gateway') markHandedOver(req.headers, given);
      app.routing(req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = front.address() as AddressInfo;
      for (const id of ['made by the gateway', 'sent by a client']) {
        const res = await fetch(`http://127.0.0.1:${port}/id`, { headers: { 'x-request-id': id } });
        ids.push(((await res.json()) as { id: string }).id);
      }
    } finally {
      await new Promise((resolve) => front.close(resolve));
    }
    // Spaces fail the id pattern: only the marked one is kept as it came.
    expect(ids[0]).toBe('made by the gateway');
    expect(ids[1]).not.toBe('sent by a client');
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    // The gateway writes the handed-over request's line; the service writes the other's.
    await sleep(20);
    const logged = lines
      .filter((l) => l.includes('request completed'))
      .map((l) => (JSON.parse(l) as { requestId: string }).requestId);
    expect(logged).toEqual([ids[1]]);
  });

  it('echoes a well-formed x-request-id and hands it to the bus headers', async () => {
    const { app } = await track(buildApp(echoId));
    const res = await send(app, { url: '/id', headers: { 'x-request-id': 'gw-1:abc.DEF_9-x' } });
    expect(res.headers['x-request-id']).toBe('gw-1:abc.DEF_9-x');
    expect(res.json()).toEqual({ id: 'gw-1:abc.DEF_9-x', headers: { 'x-request-id': 'gw-1:abc.DEF_9-x' } });
  });

  it.each(['bad id with spaces', 'x'.repeat(129), 'a\u00e9b', 'a/b'])(
    'replaces "%s" with a new UUID',
    async (given) => {
      const { app } = await track(buildApp(echoId));
      const res = await send(app, {
        url: '/id',
        headers: { 'x-request-id': encodeURIComponent(given) === given ? given : 'a/b' },
      });
      expect(res.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    },
  );

  it('generates one when absent, also on 404s', async () => {
    const { app } = await track(buildApp(echoId));
    const a = await send(app, { url: '/nope' });
    const b = await send(app, { url: '/nope' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('client address', () => {
  const ipRoute = (scope: FastifyInstance) =>
    defineRoute(scope, { method: 'GET', url: '/ip', handler: async ({ request }) => ({ ip: request.ip }) });

  it('trusts X-Forwarded-For from the proxies TRUST_PROXY names (loopback by default)', async () => {
    const { app } = await track(buildApp(ipRoute, { config: { TRUST_PROXY: ['loopback'] } }));
    const res = await send(app, { url: '/ip', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(res.json()).toEqual({ ip: '203.0.113.7' });
  });

  it('ignores it when the proxy is not trusted', async () => {
    const { app } = await track(buildApp(ipRoute, { config: { TRUST_PROXY: false } }));
    const res = await send(app, { url: '/ip', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(res.json()).toEqual({ ip: '127.0.0.1' });
  });
});

describe('health', () => {
  it('/healthz is 200 while the process lives', async () => {
    const { app } = await track(buildApp(() => undefined));
    const res = await send(app, { url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz is 200 when store and bus answer', async () => {
    const ok = { ping: async () => undefined };
    const { app } = await track(buildApp(() => undefined, { store: ok, bus: undefined }));
    const res = await send(app, { url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('/readyz is 503 naming the failing and the hanging dependency', async () => {
    const failing = {
      ping: async () => {
        throw new Error('connect ECONNREFUSED mongodb://user:pw@db');
      },
    };
    // A bus that never answers (listen is needed by the auth cache every app sets up).
    const hanging = {
      ping: () => new Promise<void>(() => undefined),
      listen: async () => ({ unsubscribe: async () => undefined }),
    };
    const { app } = await track(
      buildApp(() => undefined, {
        store: failing,
        bus: hanging as unknown as Bus,
        readyTimeoutMs: 50,
      }),
    );
    const res = await send(app, { url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unready', checks: { store: 'failed', bus: 'timeout' } });
    expect(res.body).not.toContain('pw');
  });
});

describe('metrics', () => {
  it('/metrics counts requests by route pattern and status, with durations and process metrics', async () => {
    const { app } = await track(
      buildApp(
        (scope) =>
          defineRoute(scope, {
            method: 'GET',
            url: '/items/:id',
            handler: async () => ({ ok: true }),
          }),
        { processMetrics: true, service: 'reader' },
      ),
    );
    await send(app, { url: '/items/1' });
    await send(app, { url: '/items/2' });
    await send(app, { url: '/random/scan' });
    const res = await send(app, { url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain(
      'http_requests_total{method="GET",route="/items/:id",status="200",service="reader"} 2',
    );
    expect(res.body).toContain(
      'http_requests_total{method="GET",route="unmatched",status="404",service="reader"} 1',
    );
    // Both requests are in the histogram; which bucket depends on how busy the machine is, so +Inf.
    expect(res.body).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",service="reader",method="GET",route="\/items\/:id",status="200"\} 2/,
    );
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{service="reader",method="GET",route="\/items\/:id",status="200"\} 2/,
    );
    expect(res.body).toContain('reader_process_cpu_user_seconds_total');
  });
});

describe('request log', () => {
  it('writes one line per request without tokens; probes are left out at info', async () => {
    const { app, lines } = await track(
      buildApp((scope) =>
        defineRoute(scope, {
          method: 'GET',
          url: '/feeds/:user/bookmarks/:file',
          handler: async () => ({ ok: 1 }),
        }),
      ),
    );
    await send(app, {
      url: '/feeds/ada/bookmarks/QUEUETOKEN123.json?token=SECRET1&page=2',
      headers: { authorization: 'Bearer SECRET2', cookie: 'sid=SECRET3', 'x-request-id': 'log-1' },
    });
    await send(app, { url: '/healthz' });
    await send(app, { url: '/metrics' });
    await sleep(20);
    const requestLines = lines.filter((l) => l.includes('request completed'));
    expect(requestLines).toHaveLength(1);
    const line = JSON.parse(requestLines[0]!) as Record<string, any>;
    expect(line).toMatchObject({
      service: 'test',
      requestId: 'log-1',
      req: {
        method: 'GET',
        url: '/feeds/ada/bookmarks/***.json?token=***&page=2',
        route: '/feeds/:user/bookmarks/:file',
      },
      res: { statusCode: 200 },
    });
    expect(lines.join('\n')).not.toMatch(/SECRET\d|QUEUETOKEN/);
  });

  it('leaves the line of a request injected with a marked id to the gateway, until it is released', async () => {
    const { app, lines } = await track(
      buildApp((scope) =>
        defineRoute(scope, { method: 'POST', url: '/in', handler: async () => ({ ok: 1 }) }),
      ),
    );
    const inject = (id: string) =>
      app.inject({ method: 'POST', url: '/in', headers: { 'x-request-id': id }, payload: { a: 1 } });
    const completed = (id: string) =>
      lines.filter((l) => l.includes('request completed') && l.includes(`"requestId":"${id}"`));
    // Marked twice (two requests with one id in flight): one release leaves it marked.
    const first = markInjected('injected-1');
    const second = markInjected('injected-1');
    expect((await inject('injected-1')).statusCode).toBe(200);
    first();
    first();
    expect((await inject('injected-1')).statusCode).toBe(200);
    // Another id, and a request over a socket with the marked id, are logged as ever.
    await inject('injected-2');
    await send(app, { method: 'POST', url: '/in', headers: { 'x-request-id': 'injected-1' }, payload: {} });
    second();
    await inject('injected-1');
    await sleep(20);
    expect(completed('injected-1')).toHaveLength(2);
    expect(completed('injected-2')).toHaveLength(1);
  });
});

describe('rate limits per route', () => {
  it('answer 429 with Retry-After in the area shape once the limit is used up', async () => {
    const { app } = await track(
      buildApp(
        (scope) =>
          defineRoute(scope, {
            method: 'POST',
            url: '/oauth/token',
            rateLimit: { max: 2, timeWindow: 60_000 },
            handler: async () => ({ ok: true }),
          }),
        { errorStyle: 'oauth' },
      ),
    );
    expect((await send(app, { url: '/oauth/token', method: 'POST' })).statusCode).toBe(200);
    expect((await send(app, { url: '/oauth/token', method: 'POST' })).statusCode).toBe(200);
    const res = await send(app, { url: '/oauth/token', method: 'POST' });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(res.json()).toEqual({
      error: 'rate_limited',
      error_description: 'Too many requests. Try again later.',
    });
  });

  it('count per key from keyGenerator', async () => {
    const { app } = await track(
      buildApp((scope) =>
        defineRoute(scope, {
          method: 'GET',
          url: '/limited',
          rateLimit: { max: 1, timeWindow: '1 minute', keyGenerator: (r) => String(r.headers['x-user']) },
          handler: async () => ({ ok: true }),
        }),
      ),
    );
    expect((await send(app, { url: '/limited', headers: { 'x-user': 'a' } })).statusCode).toBe(200);
    expect((await send(app, { url: '/limited', headers: { 'x-user': 'b' } })).statusCode).toBe(200);
    const third = await send(app, { url: '/limited', headers: { 'x-user': 'a' } });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ error: 'Too many requests. Try again later.' });
  });
});

describe('timeouts', () => {
  it('a handler slower than the route timeout is answered 503', async () => {
    const { app } = await track(
      buildApp((scope) =>
        defineRoute(scope, {
          method: 'GET',
          url: '/slow',
          timeoutMs: 50,
          handler: async () => {
            await sleep(300);
            return { late: true };
          },
        }),
      ),
    );
    const res = await send(app, { url: '/slow' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'The request took too long.' });
  });

  it('an answer already under way when the time is up is cut short, not ended as if whole', async () => {
    const { app } = await track(
      buildApp((scope) =>
        defineRoute(scope, {
          method: 'GET',
          url: '/trickle',
          timeoutMs: 100,
          handler: async ({ reply }) => {
            // The head and a first chunk leave at once; the rest would come long after the limit.
            const body = new Readable({ read() {} });
            body.push('first part,');
            return reply.type('text/plain').send(body);
          },
        }),
      ),
    );
    const { port } = app.server.address() as AddressInfo;
    const outcome = await new Promise<{ status: number; received: string; cut: boolean }>((resolve) => {
      get(`http://127.0.0.1:${port}/trickle`, (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, received, cut: false }));
        res.on('aborted', () => resolve({ status: res.statusCode ?? 0, received, cut: true }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, received, cut: true }));
      });
    });
    expect(outcome).toEqual({ status: 200, received: 'first part,', cut: true });
  });
});
