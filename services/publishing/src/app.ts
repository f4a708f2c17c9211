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
    clock: ctx.clock,
    // XML-RPC logins keep their own counter name and limit (XMLRPC_FAILED_LOGINS_PER_15_MINUTES).
    auth: {
      failedLogins: {
        max: ctx.config.XMLRPC_FAILED_LOGINS_PER_15_MINUTES,
        windowMs: 15 * 60_000,
        name: 'xmlrpc-failed-login',
      },
    },
    // The whole store (it holds the failed-login throttle); ready means the media can be reached too.
    store: {
      kind: store.kind,
      collection: (name) => store.collection(name),
      close: () => store.close(),
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
