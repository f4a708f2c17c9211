// The federation HTTP app: the platform's app (limits, errors, health, metrics) and the route groups.
// The inboxes get their own scope for the body parsers they alone have (ActivityStreams media types,
// read as bytes so the Digest can be checked). It never touches the bus or the jobs.
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { FederationContext } from './domain/context.js';
import { registerActorRoutes } from './routes/actors.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerInboxRoutes } from './routes/inbox.js';

export async function buildFederationApp(
  ctx: FederationContext,
  http: ServiceHttpOptions,
): Promise<FastifyInstance> {
  const app = await createHttpApp({ ...http, errorStyle: 'simple' });
  await app.register(async (scope) => registerDiscoveryRoutes(scope, ctx));
  await app.register(async (scope) => registerActorRoutes(scope, ctx));
  await app.register(async (scope) => registerInboxRoutes(scope, ctx));
  return app;
}
