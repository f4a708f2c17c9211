// Taggings and tags (beyond the interface, for Feedbin clients' folders).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '@murmur/core';
import { zParam, defineRoute } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import {
  deleteTag,
  deleteTagging,
  listTaggings,
  listTags,
  renameTag,
  tagFeed,
  userTagging,
} from '../domain/taggings.js';
import { tagJson, taggingJson } from '../domain/tagging-json.js';
import { setLastModified } from './http-cache.js';
import { pathId, requiredName } from './params.js';
import { tagSchema, taggingSchema } from '../shapes.js';
import { followScope, readScope } from './access.js';

const NAME_MAX = 255;

export function registerTaggingRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  const location = (id: number) => `${ctx.config.PUBLIC_URL}/feeds/v2/taggings/${id}.json`;
  const taggingsOf = async (userId: number) => (await listTaggings(ctx, userId)).map(taggingJson);

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/taggings.json',
    ...readScope,
    response: { 200: z.array(taggingSchema) },
    handler: async ({ auth, reply }) => {
      setLastModified(reply, (await ctx.views.get(auth.userId)).listChangedAt.taggings, ctx.clock);
      return taggingsOf(auth.userId);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/taggings/:id.json',
    digitParams: ['id'],
    ...readScope,
    params: pathId,
    response: { 200: taggingSchema },
    handler: async ({ params, auth }) => {
      const tagging = await userTagging(ctx, auth.userId, params.id);
      if (!tagging) throw notFound();
      return taggingJson(tagging);
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/v2/taggings.json',
    ...followScope,
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

  defineRoute(scope, {
    method: 'DELETE',
    url: '/feeds/v2/taggings/:id.json',
    digitParams: ['id'],
    ...followScope,
    params: pathId,
    handler: async ({ params, auth, reply }) => {
      if (!(await deleteTagging(ctx, auth.userId, params.id))) throw notFound();
      reply.code(204).type('text/plain');
      return undefined;
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/tags.json',
    ...readScope,
    response: { 200: z.array(tagSchema) },
    handler: async ({ auth, reply }) => {
      setLastModified(reply, (await ctx.views.get(auth.userId)).listChangedAt.taggings, ctx.clock);
      return (await listTags(ctx, auth.userId)).map(tagJson);
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/v2/tags.json',
    ...followScope,
    input: z.object({ old_name: requiredName(NAME_MAX), new_name: requiredName(NAME_MAX) }),
    response: { 200: z.array(taggingSchema) },
    handler: async ({ input, auth }) => {
      await renameTag(ctx, auth.userId, input.old_name, input.new_name);
      return taggingsOf(auth.userId);
    },
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/feeds/v2/tags.json',
    ...followScope,
    input: z.object({ name: requiredName(NAME_MAX) }),
    response: { 200: z.array(taggingSchema) },
    handler: async ({ input, auth }) => {
      await deleteTag(ctx, auth.userId, input.name);
      return taggingsOf(auth.userId);
    },
  });
}
