// Taggings and tags (beyond the interface, for Feedbin clients' folders).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound, zParam } from '@murmur/platform';
import type { ReaderContext } from '../domain/context.js';
import {
  deleteTag,
  deleteTagging,
  listTaggings,
  listTags,
  renameTag,
  tagFeed,
  tagJson,
  taggingJson,
} from '../domain/taggings.js';
import { setLastModified } from './http-cache.js';
import { pathId, requiredName } from './params.js';
import { readerRoute, type RouteScopes } from './route.js';
import { tagSchema, taggingSchema } from './schemas.js';

const NAME_MAX = 255;

export function registerTaggingRoutes(scope: FastifyInstance, scopes: RouteScopes, ctx: ReaderContext): void {
  const location = (id: number) => `${ctx.config.PUBLIC_URL}/feeds/v2/taggings/${id}.json`;
  const taggingsOf = async (userId: number) => (await listTaggings(ctx, userId)).map(taggingJson);

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/taggings.json',
    scope: 'read',
    response: { 200: z.array(taggingSchema) },
    handler: async ({ auth, reply }) => {
      setLastModified(reply, (await ctx.views.get(auth.userId)).updatedAt, ctx.clock);
      return taggingsOf(auth.userId);
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/taggings/:id.json',
    scope: 'read',
    params: pathId,
    response: { 200: taggingSchema },
    handler: async ({ params, auth }) => {
      const tagging = await ctx.store.taggings.findOne({ _id: params.id, userId: auth.userId });
      if (!tagging) throw notFound();
      return taggingJson(tagging);
    },
  });

  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/v2/taggings.json',
    scope: 'follow',
    input: z.object({ feed_id: zParam.id(), name: requiredName(NAME_MAX) }),
    response: { 201: taggingSchema, 302: taggingSchema },
    handler: async ({ input, auth, reply }) => {
      const view = await ctx.views.get(auth.userId);
      if (!view.subscriptionByFeed.has(input.feed_id)) throw notFound();
      const { tagging, created } = await tagFeed(ctx, auth.userId, input.feed_id, input.name);
      reply.code(created ? 201 : 302).header('location', location(tagging._id));
      return taggingJson(tagging);
    },
  });

  readerRoute(scope, scopes, {
    method: 'DELETE',
    url: '/feeds/v2/taggings/:id.json',
    scope: 'follow',
    params: pathId,
    handler: async ({ params, auth, reply }) => {
      if (!(await deleteTagging(ctx, auth.userId, params.id))) throw notFound();
      reply.code(204).type('text/plain');
      return undefined;
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/tags.json',
    scope: 'read',
    response: { 200: z.array(tagSchema) },
    handler: async ({ auth, reply }) => {
      setLastModified(reply, (await ctx.views.get(auth.userId)).updatedAt, ctx.clock);
      return (await listTags(ctx, auth.userId)).map(tagJson);
    },
  });

  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/v2/tags.json',
    scope: 'follow',
    input: z.object({ old_name: requiredName(NAME_MAX), new_name: requiredName(NAME_MAX) }),
    response: { 200: z.array(taggingSchema) },
    handler: async ({ input, auth }) => {
      await renameTag(ctx, auth.userId, input.old_name, input.new_name);
      return taggingsOf(auth.userId);
    },
  });

  readerRoute(scope, scopes, {
    method: 'DELETE',
    url: '/feeds/v2/tags.json',
    scope: 'follow',
    input: z.object({ name: requiredName(NAME_MAX) }),
    response: { 200: z.array(taggingSchema) },
    handler: async ({ input, auth }) => {
      await deleteTag(ctx, auth.userId, input.name);
      return taggingsOf(auth.userId);
    },
  });
}
