// The websub HTTP app: the platform's app (limits, errors, health, metrics) and the hub endpoint. It
// never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { WebsubContext } from './domain/context.js';
import { registerHubRoutes } from './routes/hub.js';

export async function buildWebsubApp(ctx: WebsubContext, http: ServiceHttpOptions): Promise<FastifyInstance> {
  const app = await createHttpApp({ ...http, errorStyle: 'simple' });
  await app.register(async (scope) => registerHubRoutes(scope, ctx));
  return app;
}
