// A user's moderation of the mentions of their own sites (Bearer token): list, remove one, block or
// unblock a source host. Another user's mention is not found.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import type { WebmentionContext } from '../domain/context.js';
import { blockedSchema, blocksSchema, mineSchema } from '../shapes.js';
import { blockHost, blocksOf, mentionsOfUser, removeMention, unblockHost } from '../domain/moderation.js';

const hostParam = z.object({ host: z.string().max(253) });

export function registerModerationRoutes(scope: FastifyInstance, ctx: WebmentionContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/webmention/mine',
    response: { 200: mineSchema },
    auth: 'required',
    scopes: ['read'],
    handler: ({ auth }) => mentionsOfUser(ctx, auth.userId),
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/webmention/:id',
    digitParams: ['id'],
    params: z.object({ id: zParam.id() }),
    auth: 'required',
    scopes: ['update'],
    handler: async ({ auth, params, reply }) => {
      await removeMention(ctx, auth.userId, params.id);
      reply.code(204);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/webmention/blocks',
    response: { 200: blocksSchema },
    auth: 'required',
    scopes: ['read'],
    handler: ({ auth }) => blocksOf(ctx, auth.userId),
  });

  defineRoute(scope, {
    method: 'PUT',
    url: '/webmention/blocks/:host',
    params: hostParam,
    response: { 200: blockedSchema },
    auth: 'required',
    scopes: ['update'],
    handler: ({ auth, params }) => blockHost(ctx, params.host, auth.userId),
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/webmention/blocks/:host',
    params: hostParam,
    auth: 'required',
    scopes: ['update'],
    handler: async ({ auth, params, reply }) => {
      await unblockHost(ctx, params.host, auth.userId);
      reply.code(204);
    },
  });
}
