// POST /webmention: what senders call. Refusals are one-line text/plain reasons (the route's error
// style); success is 202 with an empty body and no Location. Body at most 16 KiB; at most
// WEBMENTION_PER_IP_PER_HOUR requests per client address (counted in the store, shared by replicas).
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '@murmur/http';
import type { WebmentionContext } from '../domain/context.js';
import { receive } from '../domain/receive.js';

export function registerReceiveRoutes(scope: FastifyInstance, ctx: WebmentionContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/webmention',
    errorStyle: 'text',
    bodyLimit: 16 * 1024,
    rateLimit: {
      key: 'ip',
      max: ctx.config.WEBMENTION_PER_IP_PER_HOUR,
      windowMs: 3_600_000,
      name: 'webmention-post-ip',
      message: 'too many webmentions from this address; try again later',
    },
    handler: async ({ input, reply }) => {
      await receive(ctx, input as Record<string, unknown>);
      reply.code(202).header('content-type', 'text/plain; charset=utf-8');
      return reply.send('');
    },
  });
}
