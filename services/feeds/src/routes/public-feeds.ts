// The public JSON Feeds: a user's timeline, mentions and webmentions, the photos of the whole
// service and the blogroll. Readable cross-origin: each route declares `crossOrigin`, and the gateway
// adds the CORS headers.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import { blogrollView } from '../domain/blogroll.js';
import type { FeedsContext } from '../domain/context.js';
import { mentionsView, photosView, timelineView } from '../domain/timelines.js';
import { webmentionsView } from '../domain/webmentions.js';
import { answerFeed, publicFeedHeaders } from './http-cache.js';
import { countParam, usernameParam } from './params.js';
import { jsonFeedSchema } from '../shapes.js';

export function registerPublicFeedRoutes(scope: FastifyInstance, ctx: FeedsContext): void {
  scope.addHook('onRequest', async (_request, reply) => publicFeedHeaders(reply));

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/photos.json',
    crossOrigin: true,
    response: { 200: jsonFeedSchema },
    handler: ({ request, reply }) => answerFeed(request, reply, photosView(ctx), ctx),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/blogroll.org.json',
    crossOrigin: true,
    response: { 200: jsonFeedSchema },
    handler: async ({ request, reply }) => answerFeed(request, reply, await blogrollView(ctx), ctx),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username.json',
    crossOrigin: true,
    params: usernameParam,
    input: z.object({ count: countParam }),
    response: { 200: jsonFeedSchema },
    handler: async ({ params, input, request, reply }) =>
      answerFeed(request, reply, await timelineView(ctx, params.username, input.count), ctx),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username/mentions.json',
    crossOrigin: true,
    params: usernameParam,
    input: z.object({ count: countParam }),
    response: { 200: jsonFeedSchema },
    handler: async ({ params, input, request, reply }) =>
      answerFeed(request, reply, await mentionsView(ctx, params.username, input.count), ctx),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username/webmentions.json',
    crossOrigin: true,
    params: usernameParam,
    response: { 200: jsonFeedSchema },
    handler: async ({ params, request, reply }) =>
      answerFeed(request, reply, await webmentionsView(ctx, params.username), ctx),
  });
}
