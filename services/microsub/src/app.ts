// The microsub HTTP app: the platform's app (limits, errors in the OAuth shape Microsub clients read,
// health, metrics) and the /microsub routes. The routes get a scope for the CORS headers they alone
// send (browser-based readers call them cross-origin with a Bearer token; no cookie is ever read, so
// the wildcard origin is safe). It never touches the bus.
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { MicrosubContext } from './domain/context.js';
import { CORS_HEADERS, registerMicrosubRoutes } from './routes/microsub.js';

export async function buildMicrosubApp(
  ctx: MicrosubContext,
  http: ServiceHttpOptions,
): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    errorStyle: 'oauth',
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(CORS_HEADERS);
    });
    scope.options('/microsub', async (_request, reply) => reply.code(204).send());
    registerMicrosubRoutes(scope, ctx);
  });
  return app;
}
