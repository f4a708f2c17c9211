// The push HTTP app: the platform's app (limits, errors, health, metrics) and the route groups. The
// admin routes get a scope for the operator-token check. It never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, requireAdminToken } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { PushContext } from './domain/context.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerDeviceRoutes } from './routes/devices.js';
import { registerWebRoutes } from './routes/web.js';

export async function buildPushApp(ctx: PushContext, http: ServiceHttpOptions): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    errorStyle: 'simple',
  });
  await app.register(async (scope) => registerDeviceRoutes(scope, ctx));
  await app.register(async (scope) => registerWebRoutes(scope, ctx));
  await app.register(async (scope) => {
    requireAdminToken(scope, ctx.config.MURMUR_ADMIN_TOKEN);
    registerAdminRoutes(scope, ctx);
  });
  return app;
}
