// Highlights (`{"error"}` error shape): create on a visible entry, list per entry and overall as JSON
// Feed 1.1, delete. Highlights keep a copy of the entry's title and URL, so they survive unsubscribing.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, escapeHtml, formatOffsetTime, nextId, notFound, zParam } from '@murmur/platform';
import type { ReaderContext } from '../domain/context.js';
import { visibleEntries } from '../domain/entries.js';
import type { EntryDoc, HighlightDoc } from '../store.js';
import { readerRoute, type RouteScopes } from './route.js';
import { emptySchema, highlightCreatedSchema, highlightFeedSchema } from './schemas.js';

const TEXT_MAX = 10_000;
const JSON_FEED_1_1 = 'https://jsonfeed.org/version/1.1' as const;

function itemJson(h: HighlightDoc) {
  return {
    id: String(h._id),
    ...(h.entryUrl ? { url: h.entryUrl } : {}),
    ...(h.entryTitle ? { title: h.entryTitle } : {}),
    content_html: `<p>${escapeHtml(h.text)}</p>`,
    content_text: h.text,
    date_published: formatOffsetTime(h.createdAt),
    _service: { entry_id: h.entryId, selection_start: h.start, selection_end: h.end },
  };
}

export function registerHighlightRoutes(
  scope: FastifyInstance,
  scopes: RouteScopes,
  ctx: ReaderContext,
): void {
  const base = ctx.config.PUBLIC_URL;

  async function visibleEntry(userId: number, entryId: number): Promise<EntryDoc> {
    const [entry] = await visibleEntries(ctx.store, await ctx.views.get(userId), [entryId]);
    if (!entry) throw notFound('No such entry.');
    return entry;
  }

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/highlights',
    scope: 'read',
    input: z.object({
      limit: zParam.int({ min: 1, max: 100, clamp: true }).default(20),
      offset: zParam.int({ min: 0 }).default(0),
    }),
    response: { 200: highlightFeedSchema },
    handler: async ({ input, auth }) => {
      const all = await ctx.store.highlights.find(
        { userId: auth.userId },
        { sort: { createdAt: -1, _id: -1 } },
      );
      const page = all.slice(input.offset, input.offset + input.limit);
      const more = input.offset + input.limit < all.length;
      return {
        version: JSON_FEED_1_1,
        title: 'Highlights',
        feed_url: `${base}/feeds/highlights`,
        ...(more
          ? { next_url: `${base}/feeds/highlights?limit=${input.limit}&offset=${input.offset + input.limit}` }
          : {}),
        items: page.map(itemJson),
      };
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/:entry_id/highlights',
    scope: 'read',
    params: z.object({ entry_id: zParam.id() }),
    response: { 200: highlightFeedSchema },
    handler: async ({ params, auth }) => {
      await visibleEntry(auth.userId, params.entry_id);
      const list = await ctx.store.highlights.find(
        { entryId: params.entry_id, userId: auth.userId },
        { sort: { createdAt: -1, _id: -1 } },
      );
      return {
        version: JSON_FEED_1_1,
        title: 'Highlights',
        feed_url: `${base}/feeds/${params.entry_id}/highlights`,
        items: list.map(itemJson),
      };
    },
  });

  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/:entry_id/highlights',
    scope: 'create',
    params: z.object({ entry_id: zParam.id() }),
    input: z.object({
      text: zParam.string({ min: 1, max: TEXT_MAX }),
      start: zParam.int({ min: 0 }).optional(),
      end: zParam.int({ min: 0 }).optional(),
    }),
    response: { 200: highlightCreatedSchema },
    handler: async ({ params, input, auth }) => {
      if (input.text.trim() === '') throw badRequest('text: must not be blank', 'text');
      if (input.start !== undefined && input.end !== undefined && input.end < input.start) {
        throw badRequest('end: must not be smaller than start', 'end');
      }
      const entry = await visibleEntry(auth.userId, params.entry_id);
      const doc: HighlightDoc = {
        _id: await nextId(ctx.store.raw, 'highlights'),
        userId: auth.userId,
        entryId: entry._id,
        text: input.text,
        start: input.start ?? null,
        end: input.end ?? null,
        createdAt: ctx.clock.nowDate(),
        entryTitle: entry.title,
        entryUrl: entry.url,
      };
      await ctx.store.highlights.insertOne(doc);
      const count = await ctx.store.highlights.countDocuments({ entryId: entry._id, userId: auth.userId });
      return { id: doc._id, count };
    },
  });

  readerRoute(scope, scopes, {
    method: 'DELETE',
    url: '/feeds/:entry_id/highlights/:highlight_id',
    scope: 'create',
    params: z.object({ entry_id: zParam.id(), highlight_id: zParam.id() }),
    response: { 200: emptySchema },
    handler: async ({ params, auth }) => {
      const r = await ctx.store.highlights.deleteOne({
        _id: params.highlight_id,
        entryId: params.entry_id,
        userId: auth.userId,
      });
      if (r.deletedCount === 0) throw notFound('No such highlight.');
      return {};
    },
  });
}
