// The reader HTTP app: the platform's app (authentication, limits, errors, health, metrics) plus the
// reader's routes in one scope, whose hook writes `Date` from the reader's clock, `ETag` and 304s for
// those routes alone (docs/api/reader.md "Conventions"). It never listens; the runtime (or a test) decides.
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { ReaderContext } from './domain/context.js';
import { registerEntryRoutes } from './routes/entries.js';
import { registerExtractRoutes } from './routes/extract.js';
import { registerHighlightRoutes } from './routes/highlights.js';
import { registerHttpCaching } from './routes/http-cache.js';
import { registerIconRoutes } from './routes/icons.js';
import { registerImportRoutes } from './routes/imports.js';
import { registerRecapRoutes } from './routes/recap.js';
import { registerSetRoutes } from './routes/sets.js';
import { registerSubscriptionRoutes } from './routes/subscriptions.js';
import { registerTaggingRoutes } from './routes/taggings.js';
import { registerWebSubRoutes } from './routes/websub.js';

export async function buildReaderApp(ctx: ReaderContext, http: ServiceHttpOptions): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    // 401s challenge with `Bearer realm="service"`, as Feedbin clients have always been answered.
    auth: { realm: 'service' },
    // The extracted-content address stands in for Feedbin's extract service, not its API, and hubs call
    // the WebSub callback: their errors say why in the simple style.
    errorStyle: (url) =>
      url.startsWith('/feeds/v2/') &&
      !url.startsWith('/feeds/v2/extract/') &&
      !url.startsWith('/feeds/v2/websub/')
        ? 'feedbin'
        : 'simple',
  });

  await app.register(async (scope) => {
    registerHttpCaching(scope, ctx.clock);
    registerEntryRoutes(scope, ctx);
    registerExtractRoutes(scope, ctx);
    registerSetRoutes(scope, ctx);
    registerSubscriptionRoutes(scope, ctx);
    registerIconRoutes(scope, ctx);
    registerTaggingRoutes(scope, ctx);
    registerImportRoutes(scope, ctx);
    registerHighlightRoutes(scope, ctx);
    registerRecapRoutes(scope, ctx);
  });
  // The WebSub callback: hubs, not clients, call it (no caching hook), with bodies read as bytes.
  await app.register(async (scope) => registerWebSubRoutes(scope, ctx));
  return app;
}
