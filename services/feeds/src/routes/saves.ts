// Bookmarks and read later (docs/api/feeds.md "Bookmarks and read later"): Bearer-authenticated,
// parameters from the query, a form or JSON.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@murmur/core';
import { defineRoute, zParam } from '@murmur/http';
import type { FeedsContext } from '../domain/context.js';
import {
  archive,
  bookmarkPost,
  bookmarksView,
  bookmarkUrl,
  deleteBookmark,
  queueToken,
  rotateQueueToken,
  saveForLater,
} from '../domain/saves.js';
import { answerFeed } from './http-cache.js';
import { countParam, urlParam } from './params.js';
import { emptySchema, jsonFeedSchema, queueTokenSchema, savedSchema } from '../shapes.js';

const savedIdParams = z.object({ id: z.string().min(1).max(40) });

export function registerSaveRoutes(scope: FastifyInstance, ctx: FeedsContext): void {
  // Lists of one user's saves: cached by nobody else.
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'private, max-age=0');
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/posts/bookmarks',
    auth: 'required',
    scopes: ['create'],
    input: z.object({ url: urlParam.optional(), id: zParam.id().optional() }),
    response: { 200: savedSchema },
    handler: async ({ input, auth }) => {
      if (input.url !== undefined) return bookmarkUrl(ctx, auth.userId, input.url);
      if (input.id !== undefined) return bookmarkPost(ctx, auth.userId, input.id);
      throw badRequest('url: is required (or id, a post of this service)', 'url');
    },
  });

  for (const [url, podcasts] of [
    ['/posts/bookmarks', false],
    ['/posts/bookmarks/listenlater', true],
  ] as const) {
    defineRoute(scope, {
      method: 'GET',
      url,
      auth: 'required',
      scopes: ['read'],
      input: z.object({ count: countParam, before_id: zParam.string({ max: 40, trim: true }).optional() }),
      response: { 200: jsonFeedSchema },
      handler: async ({ input, auth, request, reply }) => {
        const view = await bookmarksView(ctx, auth.userId, {
          count: input.count,
          podcasts,
          ...(input.before_id !== undefined ? { beforeId: input.before_id } : {}),
        });
        return answerFeed(request, reply, view, ctx);
      },
    });
  }

  defineRoute(scope, {
    method: 'DELETE',
    url: '/posts/bookmarks/:id',
    auth: 'required',
    scopes: ['create'],
    params: savedIdParams,
    response: { 200: emptySchema },
    handler: async ({ params, auth }) => {
      await deleteBookmark(ctx, auth.userId, params.id);
      return {};
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/readlater',
    auth: 'required',
    scopes: ['create'],
    input: z.object({ url: urlParam }),
    response: { 200: savedSchema },
    handler: ({ input, auth }) => saveForLater(ctx, auth.userId, input.url),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/readlater/:id/archive',
    auth: 'required',
    scopes: ['create'],
    params: savedIdParams,
    response: { 200: emptySchema },
    handler: async ({ params, auth }) => {
      await archive(ctx, auth.userId, params.id);
      return {};
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/readlater/token',
    auth: 'required',
    scopes: ['read'],
    response: { 200: queueTokenSchema },
    handler: ({ auth }) => queueToken(ctx, auth.userId),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/readlater/token',
    auth: 'required',
    scopes: ['create'],
    response: { 200: queueTokenSchema },
    handler: ({ auth }) => rotateQueueToken(ctx, auth.userId),
  });
}
