// Operator API: source hosts refused for every site (`murmur webmentions block HOST`). Guarded by
// MURMUR_ADMIN_TOKEN like every /admin route; 403 while it is unset.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  bearerToken,
  defineRoute,
  forbidden,
  sha256Hex,
  timingSafeEqualHex,
  unauthorized,
} from '@murmur/platform';
import type { WebmentionContext } from '../domain/context.js';
import { blockedSchema, blocksSchema } from './schemas.js';
import { blockHost, blocksOf, unblockHost } from '../domain/moderation.js';

/** Compared as SHA-256 hashes in constant time, so neither length nor prefix leaks by timing. */
export function requireAdminToken(scope: FastifyInstance, adminToken: string | undefined): void {
  const expected = adminToken === undefined ? undefined : sha256Hex(adminToken);
  scope.addHook('onRequest', async (request) => {
    if (expected === undefined) throw forbidden('The admin API is disabled: set MURMUR_ADMIN_TOKEN.');
    const given = bearerToken(request.headers.authorization);
    if (given === undefined || !timingSafeEqualHex(sha256Hex(given), expected)) {
      throw unauthorized('A valid admin token is required (Authorization: Bearer $MURMUR_ADMIN_TOKEN).');
    }
  });
}

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
