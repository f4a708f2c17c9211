// The reader HTTP app: the platform's app (limits, errors, health, metrics) plus the reader's routes in
// one scope whose hooks authenticate every request (Bearer or Basic) and write `Date`, `ETag` and
// 304s. It never listens; runtime (or a test) decides that.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, type Store } from '@murmur/platform';
import type { ReaderContext } from './domain/context.js';
import { requireReaderAuth, type ReaderAuthenticator } from './routes/auth.js';
import { registerEntryRoutes } from './routes/entries.js';
import { registerHighlightRoutes } from './routes/highlights.js';
import { registerHttpCaching } from './routes/http-cache.js';
import { registerIconRoutes } from './routes/icons.js';
import { registerImportRoutes } from './routes/imports.js';
import { registerRecapRoutes } from './routes/recap.js';
import { RouteScopes } from './routes/route.js';
import { registerSetRoutes } from './routes/sets.js';
import { registerSubscriptionRoutes } from './routes/subscriptions.js';
import { registerTaggingRoutes } from './routes/taggings.js';

export async function buildReaderApp(
  ctx: ReaderContext,
  store: Store,
  authenticator: ReaderAuthenticator,
): Promise<FastifyInstance> {
  const app = await createHttpApp({
    service: 'reader',
    logger: ctx.logger,
    config: ctx.config,
    bus: ctx.bus,
    store,
    errorStyle: (url) => (url.startsWith('/feeds/v2/') ? 'feedbin' : 'simple'),
  });

  const scopes = new RouteScopes();
  await app.register(async (scope) => {
    registerHttpCaching(scope, ctx.clock);
    requireReaderAuth(scope, authenticator, scopes.get);
    registerEntryRoutes(scope, scopes, ctx);
    registerSetRoutes(scope, scopes, ctx);
    registerSubscriptionRoutes(scope, scopes, ctx);
    registerIconRoutes(scope, scopes, ctx);
    registerTaggingRoutes(scope, scopes, ctx);
    registerImportRoutes(scope, scopes, ctx);
    registerHighlightRoutes(scope, scopes, ctx);
    registerRecapRoutes(scope, scopes, ctx);
  });
  return app;
}
