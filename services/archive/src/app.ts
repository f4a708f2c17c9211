// The archive HTTP app: the platform's app (limits, errors, health, metrics) and two route groups.
// The public reads get a scope for the cross-origin header they alone send; the imports get one for
// their streaming body parser. It never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { ArchiveContext } from './domain/context.js';
import { registerImportRoutes } from './routes/imports.js';
import { registerReadRoutes } from './routes/reads.js';

export async function buildArchiveApp(
  ctx: ArchiveContext,
  http: ServiceHttpOptions,
): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    errorStyle: 'simple',
  });
  await app.register(async (scope) => registerReadRoutes(scope, ctx));
  await app.register(async (scope) => registerImportRoutes(scope, ctx));
  return app;
}
