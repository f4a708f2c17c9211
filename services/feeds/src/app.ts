// The feeds HTTP app: the platform's app (limits, errors, health, metrics) and the route groups. The
// public and private feeds each get a scope for the caching headers they alone send; the admin
// routes get one for the operator-token check. It never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, requireAdminToken } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { FeedsContext } from './domain/context.js';
import { registerAdminBlogrollRoutes } from './routes/admin-blogroll.js';
import { registerFollowRoutes } from './routes/follows.js';
import { registerPrivateFeedRoutes } from './routes/private-feeds.js';
import { registerPublicFeedRoutes } from './routes/public-feeds.js';
import { registerSaveRoutes } from './routes/saves.js';

export async function buildFeedsApp(ctx: FeedsContext, http: ServiceHttpOptions): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    errorStyle: 'simple',
  });
  await app.register(async (scope) => registerPublicFeedRoutes(scope, ctx));
  await app.register(async (scope) => registerPrivateFeedRoutes(scope, ctx));
  await app.register(async (scope) => registerSaveRoutes(scope, ctx));
  await app.register(async (scope) => registerFollowRoutes(scope, ctx));
  await app.register(async (scope) => {
    requireAdminToken(scope, ctx.config.MURMUR_ADMIN_TOKEN);
    registerAdminBlogrollRoutes(scope, ctx);
  });
  return app;
}
