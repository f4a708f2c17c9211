// Builds small apps for the HTTP tests and reads what a client would see.
//
// Requests go over a real socket rather than app.inject(), so Node's own limits (header size, early
// 413 answers) are exercised too.
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Bus } from '@murmur/bus';
import { createHttpApp, type HttpAppOptions } from '../src/app.js';
import { createLogger } from '@murmur/core';
import { identityVerifier } from '@murmur/identity-client';
import { sendOverWire, type WireRequest, type WireResponse } from '@murmur/testing';

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
  // A bus given alone stands for identity's answers over it, as in a service (@murmur/identity-client).
  const credentials =
    options.credentials ??
    (options.bus && 'request' in options.bus
      ? identityVerifier(options.bus, logger, { verifyTimeoutMs: options.auth?.verifyTimeoutMs })
      : undefined);
  const app = await createHttpApp({
    service: 'test',
    logger,
    processMetrics: false,
    ...options,
    ...(credentials ? { credentials } : {}),
  });
  await app.register(async (scope) => routes(scope));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, lines };
}

export type SendOptions = WireRequest;
export type SendResponse = WireResponse;

export function send(app: FastifyInstance, options: SendOptions): Promise<SendResponse> {
  const { port } = app.server.address() as AddressInfo;
  return sendOverWire(`http://127.0.0.1:${port}`, options);
}
