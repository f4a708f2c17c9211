// Operator API: source hosts refused for every site (`murmur webmentions block HOST`). Guarded by
// MURMUR_ADMIN_TOKEN like every /admin route; 403 while it is unset.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import type { WebmentionContext } from '../domain/context.js';
import { blockedSchema, blocksSchema } from '../shapes.js';
import { blockHost, blocksOf, unblockHost } from '../domain/moderation.js';

const hostParam = z.object({ host: z.string().max(253) });

export function registerAdminRoutes(scope: FastifyInstance, ctx: WebmentionContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/admin/webmention/blocks',
    response: { 200: blocksSchema },
    handler: () => blocksOf(ctx, null),
  });
  defineRoute(scope, {
    method: 'PUT',
    url: '/admin/webmention/blocks/:host',
    params: hostParam,
    response: { 200: blockedSchema },
    handler: ({ params }) => blockHost(ctx, params.host, null),
  });
  defineRoute(scope, {
    method: 'DELETE',
    url: '/admin/webmention/blocks/:host',
    params: hostParam,
    handler: async ({ params, reply }) => {
      await unblockHost(ctx, params.host, null);
      reply.code(204);
    },
  });
}
