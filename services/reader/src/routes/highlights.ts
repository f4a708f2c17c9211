// Highlights (`{"error"}` error shape): create on a visible entry, list per entry and overall as JSON
// Feed 1.1, delete.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { highlightFeedJson } from '../domain/highlight-json.js';
import { createHighlight, deleteHighlight, entryHighlights, userHighlights } from '../domain/highlights.js';
import { createScope, readScope } from './access.js';
import { emptySchema, highlightCreatedSchema, highlightFeedSchema } from '../shapes.js';

const TEXT_MAX = 10_000;

export function registerHighlightRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  const base = ctx.config.PUBLIC_URL;

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/highlights',
    ...readScope,
    input: z.object({
      limit: zParam.int({ min: 1, max: 100, clamp: true }).default(20),
      offset: zParam.int({ min: 0 }).default(0),
    }),
    response: { 200: highlightFeedSchema },
    handler: async ({ input, auth }) => {
      const { page, more } = await userHighlights(ctx, auth.userId, input.offset, input.limit);
      const next = `${base}/feeds/highlights?limit=${input.limit}&offset=${input.offset + input.limit}`;
      return highlightFeedJson(`${base}/feeds/highlights`, page, more ? next : undefined);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/:entry_id/highlights',
    digitParams: ['entry_id'],
    ...readScope,
    params: z.object({ entry_id: zParam.id() }),
    response: { 200: highlightFeedSchema },
    handler: async ({ params, auth }) =>
      highlightFeedJson(
        `${base}/feeds/${params.entry_id}/highlights`,
        await entryHighlights(ctx, auth.userId, params.entry_id),
      ),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/:entry_id/highlights',
    digitParams: ['entry_id'],
    ...createScope,
    params: z.object({ entry_id: zParam.id() }),
    input: z.object({
      text: zParam.string({ min: 1, max: TEXT_MAX }),
      start: zParam.int({ min: 0 }).optional(),
      end: zParam.int({ min: 0 }).optional(),
    }),
    response: { 200: highlightCreatedSchema },
    handler: async ({ params, input, auth }) => createHighlight(ctx, auth.userId, params.entry_id, input),
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/feeds/:entry_id/highlights/:highlight_id',
    digitParams: ['entry_id', 'highlight_id'],
    ...createScope,
    params: z.object({ entry_id: zParam.id(), highlight_id: zParam.id() }),
    response: { 200: emptySchema },
    handler: async ({ params, auth }) => {
      await deleteHighlight(ctx, auth.userId, params.entry_id, params.highlight_id);
      return {};
    },
  });
}
