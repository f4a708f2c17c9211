// The webmention HTTP app: the platform's app (limits, errors, health, metrics) and the route groups.
// Reading gets its own scope for the CORS header it alone sends; the admin routes get one for the
// operator-token check. It never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, requireAdminToken } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { WebmentionContext } from './domain/context.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerModerationRoutes } from './routes/moderation.js';
import { registerQueryRoutes } from './routes/query.js';
import { registerReceiveRoutes } from './routes/receive.js';

export async function buildWebmentionApp(
  ctx: WebmentionContext,
  http: ServiceHttpOptions,
): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    errorStyle: 'simple',
  });
  await app.register(async (scope) => registerReceiveRoutes(scope, ctx));
  await app.register(async (scope) => registerQueryRoutes(scope, ctx));
  await app.register(async (scope) => registerModerationRoutes(scope, ctx));
  await app.register(async (scope) => {
    requireAdminToken(scope, ctx.config.MURMUR_ADMIN_TOKEN);
    registerAdminRoutes(scope, ctx);
  });
  return app;
}
