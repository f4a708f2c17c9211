// The publishing HTTP app: the platform's app (limits, errors, health, metrics) plus XML-RPC, media, the
// sites' web pages and the operator's site API. It never listens; runtime (or a test) decides that.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, type Store } from '@murmur/platform';
import type { PublishingContext } from './domain/context.js';
import { registerAdminSiteRoutes } from './routes/admin-sites.js';
import { registerMediaRoutes } from './routes/media.js';
import { registerSiteRoutes } from './routes/sites.js';
import { registerXmlRpcRoutes } from './routes/xmlrpc.js';

export async function buildPublishingApp(ctx: PublishingContext, store: Store): Promise<FastifyInstance> {
  const app = await createHttpApp({
    service: 'publishing',
    logger: ctx.logger,
    config: ctx.config,
    bus: ctx.bus,
    store: {
      // Ready means both the documents and the media can be reached.
      ping: async () => {
        await Promise.all([store.ping(), ctx.blobs.ping()]);
      },
    },
  });

  // Own scope: its error handler answers transport errors in text/plain, its hook checks method and type.
  await registerXmlRpcRoutes(app, ctx);

  await app.register(async (scope) => {
    registerMediaRoutes(scope, ctx);
    registerSiteRoutes(scope, ctx);
  });

  // Own scope: the admin token check applies to these routes only.
  await app.register(async (scope) => registerAdminSiteRoutes(scope, ctx));

  return app;
}
