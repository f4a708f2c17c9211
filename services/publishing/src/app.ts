// The publishing HTTP app: the platform's app (limits, errors, health, metrics) plus XML-RPC, Micropub, media, the
// sites' web pages and the operator's site API. It never listens; the runtime (or a test) decides that. Its
// /readyz pings the media's blob store too (the runtime opened it).
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { PublishingContext } from './domain/context.js';
import { registerAdminSiteRoutes } from './routes/admin-sites.js';
import { registerMediaRoutes } from './routes/media.js';
import { registerMicropubRoutes } from './routes/micropub.js';
import { registerSiteRoutes } from './routes/sites.js';
import { registerXmlRpcRoutes } from './routes/xmlrpc.js';

export async function buildPublishingApp(
  ctx: PublishingContext,
  http: ServiceHttpOptions,
): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    // XML-RPC logins keep their own counter name and limit (XMLRPC_FAILED_LOGINS_PER_15_MINUTES).
    auth: {
      failedLogins: {
        max: ctx.config.XMLRPC_FAILED_LOGINS_PER_15_MINUTES,
        windowMs: 15 * 60_000,
        name: 'xmlrpc-failed-login',
      },
    },
  });

  // Own scope: its error handler answers transport errors in text/plain, its hook checks method and type.
  await registerXmlRpcRoutes(app, ctx);

  await app.register(async (scope) => {
    registerMediaRoutes(scope, ctx);
    registerSiteRoutes(scope, ctx);
  });

  // Own scope: the multipart parser and the small-body check apply to the Micropub routes only.
  await app.register(async (scope) => registerMicropubRoutes(scope, ctx));

  // Own scope: the admin token check applies to these routes only.
  await app.register(async (scope) => registerAdminSiteRoutes(scope, ctx));

  return app;
}
