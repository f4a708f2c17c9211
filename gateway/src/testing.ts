// For tests of the services (`@murmur/gateway/testing`): the real gateway in front of services a test
// started, so requests go where a client's would. Not imported by production code.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Logger } from '@murmur/core';
import { createGateway } from './app.js';
import { gatewayConfigSchema, type Targets } from './config.js';

export interface TestGatewayOptions {
  /** Service base URLs, by service. */
  targets: Targets;
  logger: Logger;
  /** Where it listens on 127.0.0.1; 0 (the default) picks a free port. */
  port?: number;
  /** PUBLIC_URL; default `http://127.0.0.1:<port>` (give one with port 0). */
  publicUrl?: string;
  /** More of the gateway's environment; its rate limit is off unless set here. */
  env?: Record<string, string>;
}

export interface TestGateway {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>`: where clients connect. */
  url: string;
  close(): Promise<void>;
}

export async function startTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const port = options.port ?? 0;
  const config = loadConfig(gatewayConfigSchema, {
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    PUBLIC_URL: options.publicUrl ?? `http://127.0.0.1:${port}`,
    ...options.env,
  });
  const app = await createGateway({ config, targets: options.targets, logger: options.logger });
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return { app, url, close: () => app.close() };
}
