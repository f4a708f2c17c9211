// The public JSON Feeds: a user's timeline, mentions and webmentions, the photos of the whole
// service and the blogroll. Readable cross-origin: each route declares `crossOrigin`, and the gateway
// adds the CORS headers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { advertisedHubUrl, hubLinkHeader } from '@murmur/core';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import { blogrollView } from '../domain/blogroll.js';
import type { FeedsContext } from '../domain/context.js';
import { mentionsView, photosView, timelineView } from '../domain/timelines.js';
import { webmentionsView } from '../domain/webmentions.js';
import { answerFeed, publicFeedHeaders } from './http-cache.js';
import type { FeedView } from '../domain/views.js';
import { countParam, usernameParam } from './params.js';
import { jsonFeedSchema } from '../shapes.js';

export function registerPublicFeedRoutes(scope: FastifyInstance, ctx: FeedsContext): void {
  scope.addHook('onRequest', async (_request, reply) => publicFeedHeaders(reply));
  // Every public feed names the WebSub hub (docs/api/websub.md, "Discovery"): a Link header with the
  // hub and the feed itself as rel="self", and `hubs` in the document.
  const hub = advertisedHubUrl(ctx.config);
  const answer = async (request: FastifyRequest, reply: FastifyReply, view: FeedView) => {
    if (!hub) return answerFeed(request, reply, view, ctx);
    reply.header('link', hubLinkHeader(hub, `${ctx.config.PUBLIC_URL}${request.url.split('?')[0]}`));
    const body = await answerFeed(request, reply, view, ctx);
    return body && { ...body, hubs: [{ type: 'WebSub', url: hub }] };
  };

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/photos.json',
    crossOrigin: true,
    response: { 200: jsonFeedSchema },
    handler: ({ request, reply }) => answer(request, reply, photosView(ctx)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/blogroll.org.json',
    crossOrigin: true,
    response: { 200: jsonFeedSchema },
    handler: async ({ request, reply }) => answer(request, reply, await blogrollView(ctx)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username.json',
    crossOrigin: true,
    params: usernameParam,
    input: z.object({ count: countParam }),
    response: { 200: jsonFeedSchema },
    handler: async ({ params, input, request, reply }) =>
      answer(request, reply, await timelineView(ctx, params.username, input.count)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username/mentions.json',
    crossOrigin: true,
    params: usernameParam,
    input: z.object({ count: countParam }),
    response: { 200: jsonFeedSchema },
    handler: async ({ params, input, request, reply }) =>
      answer(request, reply, await mentionsView(ctx, params.username, input.count)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:username/webmentions.json',
    crossOrigin: true,
    params: usernameParam,
    response: { 200: jsonFeedSchema },
    handler: async ({ params, request, reply }) =>
      answer(request, reply, await webmentionsView(ctx, params.username)),
  });
}
