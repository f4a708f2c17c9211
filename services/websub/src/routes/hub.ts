// POST /websub: what subscribers and publishers call (docs/api/websub.md). Form-encoded; refusals are
// one-line text/plain reasons (the route's error style); acceptance is 202 with an empty body, the
// verification following on its own. Body at most 16 KiB; at most WEBSUB_REQUESTS_PER_IP_PER_HOUR
// requests per client address (counted in the store, shared by replicas).
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '@murmur/http';
import type { WebsubContext } from '../domain/context.js';
import { hubRequest } from '../domain/subscribe.js';

export function registerHubRoutes(scope: FastifyInstance, ctx: WebsubContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/websub',
    errorStyle: 'text',
    bodyLimit: 16 * 1024,
    rateLimit: {
      key: 'ip',
      max: ctx.config.WEBSUB_REQUESTS_PER_IP_PER_HOUR,
      windowMs: 3_600_000,
      name: 'websub-post-ip',
      message: 'too many hub requests from this address; try again later',
    },
    handler: async ({ input, reply }) => {
      await hubRequest(ctx, input as Record<string, unknown>);
      reply.code(202).header('content-type', 'text/plain; charset=utf-8');
      return reply.send('');
    },
  });
}
