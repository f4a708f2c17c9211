// Builds small apps for the HTTP tests and reads what a client would see.
//
// Requests go over a real socket rather than app.inject(): under jest on Node 20, light-my-request
// cannot load its ESM-only `cookie` dependency. A socket also exercises Node's own limits.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Bus } from '../../src/bus/port.js';
import { createHttpApp, type HttpAppOptions } from '../../src/http/index.js';
import { createLogger } from '../../src/log/index.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A logger whose JSON lines are kept in `lines` (raw text) for assertions about what gets logged. */
export function capturingLogger(level: 'info' | 'debug' = 'info') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ service: 'test', level, destination }), lines };
}

export interface TestApp {
  app: FastifyInstance;
  lines: string[];
}

/** An app with the given options; `routes` registers routes in an encapsulated scope, as services do. */
export async function buildApp(
  routes: (scope: FastifyInstance) => void,
  options: Partial<HttpAppOptions> & { bus?: Bus } = {},
): Promise<TestApp> {
  const { logger, lines } = capturingLogger();
  const app = await createHttpApp({ service: 'test', logger, processMetrics: false, ...options });
  await app.register(async (scope) => routes(scope));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, lines };
}

export interface SendOptions {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Objects are sent as JSON (content-type application/json unless given). */
  payload?: string | Buffer | object;
}

export interface SendResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any;
}

/** One HTTP request to a listening app, answered like app.inject() answers. */
export function send(app: FastifyInstance, options: SendOptions): Promise<SendResponse> {
  const { port } = app.server.address() as AddressInfo;
  const headers: Record<string, string> = { ...options.headers };
  let body: Buffer | undefined;
  if (Buffer.isBuffer(options.payload)) body = options.payload;
  else if (typeof options.payload === 'string') body = Buffer.from(options.payload);
  else if (options.payload !== undefined) {
    body = Buffer.from(JSON.stringify(options.payload));
    headers['content-type'] ??= 'application/json';
  }
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.url, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text),
          });
        });
        res.on('error', reject);
      },
    );
    // The server may answer (413, 415) and close before the whole body is written.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(body);
  });
}
