// The private queue feeds, reached by a secret token in the path (pasted into podcast and read-later
// apps, which send no credentials). A wrong token, an unknown user and a rotated-out token all get
// the same 404 with the same headers.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import type { FeedsContext } from '../domain/context.js';
import { privateBookmarksView, privateReadLaterView } from '../domain/saves.js';
import { answerFeed, privateFeedHeaders } from './http-cache.js';
import { jsonFeedSchema } from '../shapes.js';

const queueParams = z.object({ username: z.string().min(1).max(64), token: z.string().min(1).max(128) });

export function registerPrivateFeedRoutes(scope: FastifyInstance, ctx: FeedsContext): void {
  scope.addHook('onRequest', async (_request, reply) => privateFeedHeaders(reply));

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username/bookmarks/:token.json',
    params: queueParams,
    response: { 200: jsonFeedSchema },
    handler: async ({ params, request, reply }) =>
      answerFeed(request, reply, await privateBookmarksView(ctx, params.username, params.token), ctx),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username/readlater/:token.json',
    params: queueParams,
    response: { 200: jsonFeedSchema },
    handler: async ({ params, request, reply }) =>
      answerFeed(request, reply, await privateReadLaterView(ctx, params.username, params.token), ctx),
  });
}
