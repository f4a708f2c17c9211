// Fake services and a real gateway in front of them, all on 127.0.0.1.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { request, type Dispatcher } from 'undici';
import { loadConfig, SERVICE_NAMES, type Logger, type ServiceName } from '@murmur/core';
import { testLogger } from '@murmur/testing';
import { createGatewayServers, gatewayConfigSchema, type Targets } from '../src/index.js';

/** What a fake service saw, sent back as its JSON response. */
export interface Echo {
  service: ServiceName;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bodyBytes: number;
  bodySha256: string;
  body: string;
  /** How the request arrived: over a socket (proxied) or in process (single-process mode). */
  transport: 'socket' | 'in-process';
}

export interface FakeService {
  name: ServiceName;
  url: string;
  /** What its /readyz answers. */
  ready: boolean;
  /** Resolves with the URL of the next request this service receives (other than /readyz). */
  nextArrival(): Promise<string>;
  close(): Promise<void>;
}

/** The Fastify instance of each running fake service, by URL (for in-process dispatch). */
const fakeApps = new Map<string, FastifyInstance>();

/**
 * `GATEWAY_TEST_IN_PROCESS=1` runs every gateway test with the fake services dispatched in process
 * (single-process mode) instead of proxied over HTTP: the gateway must behave the same both ways.
 */
export const IN_PROCESS = process.env.GATEWAY_TEST_IN_PROCESS === '1';

/** The fake services among `targets`, for createGateway's `inProcess`. */
export function inProcessOf(targets: Targets): Partial<Record<ServiceName, FastifyInstance>> {
  const apps: Partial<Record<ServiceName, FastifyInstance>> = {};
  for (const [name, url] of Object.entries(targets)) {
    const app = url ? fakeApps.get(url) : undefined;
    if (app) apps[name as ServiceName] = app;
  }
  return apps;
}

/**
 * A service that echoes every request. Test switches: `x-test-delay-ms` (answer late),
 * `x-test-send-cors` (send a CORS header the gateway must drop where CORS is not allowed),
 * `x-test-hop-headers` (send connection-level headers meant for the gateway only; `x-test-raw-hop-headers`
 * the same, and a CORS header, written with a raw writeHead in mixed case),
 * `x-test-reset` (drop the connection without answering), `x-test-body-delay-ms` (send the head at
 * once and the body that much later; with `x-test-body-broken`, drop the connection then instead;
 * `x-test-body-first` writes a first part of the body at once), `x-test-body-parts: <n>,<ms>` (the
 * body in n parts `part 1;part 2;…`, the first at once, each next `ms` later).
 */
export async function startFakeService(name: ServiceName): Promise<FakeService> {
  const app: FastifyInstance = fastify({ bodyLimit: 200 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const state = { ready: true };
  let arrivalWaiters: ((url: string) => void)[] = [];
  // A request that arrives at this service's own port came over a socket; any other arrived in process
  // (handed the gateway's client connection, or injected without a socket at all).
  let ownPort = -1;
  const transportOf = (req: FastifyRequest): Echo['transport'] =>
    req.raw.socket?.localPort === ownPort ? 'socket' : 'in-process';
  app.get('/readyz', async (_req, reply) => reply.code(state.ready ? 200 : 503).send({ ready: state.ready }));
  app.all('/*', async (req, reply) => {
    const waiters = arrivalWaiters;
    arrivalWaiters = [];
    for (const resolve of waiters) resolve(req.url);
    if (req.headers['x-test-reset']) {
      // Over HTTP the connection drops; in process the response is destroyed unanswered.
      if (transportOf(req) === 'socket') req.raw.socket.destroy();
      else reply.raw.destroy();
      return reply.hijack();
    }
    if (req.headers['x-test-raw-hop-headers']) {
      // Written the way a handler writing its own head might: names in any case, Connection listing one.
      reply.hijack();
      reply.raw.writeHead(200, {
        'Content-Type': 'text/plain',
        CONNECTION: 'keep-alive, X-Hop',
        'X-Hop': 'for the gateway only',
        'Access-Control-Allow-Origin': '*',
      });
      reply.raw.end('raw head');
      return reply;
    }
    const parts = req.headers['x-test-body-parts'];
    if (typeof parts === 'string') {
      const [count, gapMs] = parts.split(',').map(Number) as [number, number];
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      let written = 0;
      const writePart = () => {
        written++;
        if (written === count) {
          reply.raw.end(`part ${written};`);
          return;
        }
        reply.raw.write(`part ${written};`);
        setTimeout(writePart, gapMs);
      };
      writePart();
      return reply;
    }
    const bodyDelay = Number(req.headers['x-test-body-delay-ms'] ?? 0);
    if (bodyDelay > 0) {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.flushHeaders();
      const broken = req.headers['x-test-body-broken'] !== undefined;
      if (req.headers['x-test-body-first'] !== undefined) reply.raw.write('first part;');
      setTimeout(() => {
        if (!broken) reply.raw.end('late body');
        else if (transportOf(req) === 'socket') req.raw.socket.destroy();
        else reply.raw.destroy();
      }, bodyDelay);
      return reply;
    }
    const delay = Number(req.headers['x-test-delay-ms'] ?? 0);
    if (delay > 0) await sleep(delay);
    if (req.headers['x-test-send-cors']) reply.header('access-control-allow-origin', '*');
    if (req.headers['x-test-hop-headers']) {
      reply.header('keep-alive', 'timeout=5');
      reply.header('connection', 'keep-alive, x-hop');
      reply.header('x-hop', 'for the gateway only');
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    reply.header('x-request-id', req.headers['x-request-id']);
    const echo: Echo = {
      service: name,
      method: req.method,
      url: req.url,
      headers: req.headers,
      bodyBytes: body.length,
      bodySha256: createHash('sha256').update(body).digest('hex'),
      body: body.length <= 64 * 1024 ? body.toString('utf8') : '',
      transport: transportOf(req),
    };
    return echo;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  ownPort = port;
  const url = `http://127.0.0.1:${port}`;
  fakeApps.set(url, app);
  return {
    name,
    url,
    get ready() {
      return state.ready;
    },
    set ready(value: boolean) {
      state.ready = value;
    },
    nextArrival: () => new Promise<string>((resolve) => arrivalWaiters.push(resolve)),
    close: () => {
      fakeApps.delete(url);
      return app.close();
    },
  };
}

export async function startFakeServices(
  names: readonly ServiceName[] = SERVICE_NAMES,
): Promise<FakeService[]> {
  return Promise.all(names.map(startFakeService));
}

export function targetsOf(services: FakeService[]): Targets {
  return Object.fromEntries(services.map((s) => [s.name, s.url])) as Targets;
}

export interface TestGateway {
  /** The public port. */
  url: string;
  /** The internal port: /metrics, /readyz, /healthz. */
  internalUrl: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

function urlOf(app: FastifyInstance): string {
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return `http://127.0.0.1:${port}`;
}

export async function startGateway(
  targets: Targets,
  env: Record<string, string> = {},
  options: {
    /** Dispatch in process to the fake services among `targets`, or to these apps. */
    inProcess?: boolean | Partial<Record<ServiceName, FastifyInstance>>;
    fastLane?: boolean;
    logger?: Logger;
  } = {},
): Promise<TestGateway> {
  const config = loadConfig(gatewayConfigSchema, { GATEWAY_RATE_LIMIT_PER_MINUTE: '0', ...env });
  const wanted = options.inProcess ?? IN_PROCESS;
  const inProcess = typeof wanted === 'object' ? wanted : wanted ? inProcessOf(targets) : undefined;
  const { app, internal } = await createGatewayServers({
    config,
    targets,
    logger: options.logger ?? testLogger(),
    ...(inProcess ? { inProcess } : {}),
    ...(options.fastLane === false ? { fastLane: false } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  await internal.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: urlOf(app),
    internalUrl: urlOf(internal),
    app,
    close: async () => {
      await Promise.all([app.close(), internal.close()]);
    },
  };
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = unknown>(): T;
}

export async function send(
  baseUrl: string,
  method: Dispatcher.HttpMethod,
  path: string,
  options: { headers?: Record<string, string>; body?: Dispatcher.DispatchOptions['body'] } = {},
): Promise<Response> {
  const res = await request(`${baseUrl}${path}`, { method, headers: options.headers, body: options.body });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

/** Writes raw bytes to the gateway and returns what comes back until the server closes or `waitMs` passes. */
export async function rawExchange(baseUrl: string, bytes: string | Buffer, waitMs = 2000): Promise<string> {
  const { connect } = await import('node:net');
  const { port, hostname } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', finish);
    socket.on('error', (err) => (chunks.length > 0 ? finish() : reject(err)));
  });
}
