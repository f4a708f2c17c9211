// The archive HTTP app: the platform's app (limits, errors, health, metrics) and two route groups.
// The public reads get a scope for the cross-origin header they alone send; the imports get one for
// their streaming body parser. It never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, type Store } from '@murmur/platform';
import type { ArchiveContext } from './domain/context.js';
import { registerImportRoutes } from './routes/imports.js';
import { registerReadRoutes } from './routes/reads.js';

export async function buildArchiveApp(ctx: ArchiveContext, store: Store): Promise<FastifyInstance> {
  const app = await createHttpApp({
    service: 'archive',
    logger: ctx.logger,
    config: ctx.config,
    bus: ctx.bus,
    store,
    clock: ctx.clock,
    errorStyle: 'simple',
  });
  await app.register(async (scope) => registerReadRoutes(scope, ctx));
  await app.register(async (scope) => registerImportRoutes(scope, ctx));
  return app;
}
