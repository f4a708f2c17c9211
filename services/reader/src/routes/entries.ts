// GET /feeds/v2/entries.json, /feeds/v2/entries/{id}.json, /feeds/v2/feeds/{id}/entries.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatReaderTime, notFound } from '@murmur/core';
import { linkHeader, parsePage, zParam, defineRoute } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { entryPage, userEntries, type EntryFilter } from '../domain/entries.js';
import { entryJson, type EntryShape } from '../domain/entry-json.js';
import type { UserView } from '../domain/views.js';
import { setLastModified } from './http-cache.js';
import { boolFilter, idList, lenientFlag, modeParam, pathId, rawParam, sinceParam } from './params.js';
import { entriesSchema, entrySchema } from '../shapes.js';
import { readScope } from './access.js';

const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1000;
const MAX_IDS = 100;

const shapeParams = {
  mode: modeParam(),
  include_enclosure: lenientFlag(),
};

const listParams = {
  ...shapeParams,
  read: boolFilter().optional(),
  starred: boolFilter().optional(),
  since: sinceParam().optional(),
  per_page: rawParam(),
  page: rawParam(),
};

type ListInput = {
  mode?: boolean;
  include_enclosure?: boolean;
  read?: boolean;
  starred?: boolean;
  since?: number;
  per_page?: unknown;
  page?: unknown;
};

const shapeOf = (ctx: ReaderContext, input: { mode?: boolean; include_enclosure?: boolean }): EntryShape => ({
  extended: input.mode === true,
  includeEnclosure: input.include_enclosure === true,
  extractLinks: ctx.extractLinks,
});

/** The request's query with `since` in the six-digit form, for the Link URLs. */
function linkQuery(request: FastifyRequest, sinceMicros: number | undefined): URLSearchParams {
  const q = request.url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1));
  if (sinceMicros !== undefined) params.set('since', formatReaderTime(BigInt(sinceMicros)));
  return params;
}

/** One page of a filtered timeline with the Feedbin headers; 404 for a page beyond the last. */
async function sendPage(
  ctx: ReaderContext,
  request: FastifyRequest,
  reply: FastifyReply,
  view: UserView,
  input: ListInput,
  filter: EntryFilter,
) {
  const { page, perPage, offset } = parsePage(input, {
    defaultPerPage: DEFAULT_PER_PAGE,
    maxPerPage: MAX_PER_PAGE,
  });
  const selected = await entryPage(
    ctx,
    view,
    { ...filter, read: input.read, starred: input.starred, sinceMicros: input.since },
    offset,
    perPage,
  );
  if (page > 1 && selected.docs.length === 0) throw notFound();
  const docs = selected.docs;
  const path = request.url.split('?')[0]!;
  const links = linkHeader(ctx.config.PUBLIC_URL, path, linkQuery(request, input.since), {
    page,
    perPage,
    total: selected.total,
  });
  reply.header('x-feedbin-record-count', String(selected.total));
  if (links) reply.header('links', links).header('link', links);
  setLastModified(reply, view.updatedAt, ctx.clock);
  const shape = shapeOf(ctx, input);
  return docs.map((d) => entryJson(d, shape));
}

export function registerEntryRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/entries.json',
    ...readScope,
    input: z.object({
      ...listParams,
      ids: idList({
        max: MAX_IDS,
        tooMany: 'At most 100 ids per request',
        notInteger: 'At most 100 ids per request',
        allowEmpty: true,
      }).optional(),
    }),
    response: { 200: entriesSchema },
    handler: async ({ input, auth, request, reply }) => {
      const view = await ctx.views.get(auth.userId);
      if (input.ids === undefined) return sendPage(ctx, request, reply, view, input, {});
      // With ids: the visible ones, newest first, in one page; the filters do not apply.
      const docs = await userEntries(ctx, view, input.ids);
      reply.header('x-feedbin-record-count', String(docs.length));
      setLastModified(reply, view.updatedAt, ctx.clock);
      const shape = shapeOf(ctx, input);
      return docs.map((d) => entryJson(d, shape));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/entries/:id.json',
    digitParams: ['id'],
    ...readScope,
    params: pathId,
    input: z.object(shapeParams),
    response: { 200: entrySchema },
    handler: async ({ params, input, auth, reply }) => {
      const view = await ctx.views.get(auth.userId);
      const [doc] = await userEntries(ctx, view, [params.id]);
      if (!doc) throw notFound();
      setLastModified(reply, doc.updatedAt, ctx.clock);
      return entryJson(doc, shapeOf(ctx, input));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/feeds/:id/entries.json',
    digitParams: ['id'],
    ...readScope,
    params: z.object({ id: zParam.id() }),
    input: z.object(listParams),
    response: { 200: entriesSchema },
    handler: async ({ params, input, auth, request, reply }) => {
      const view = await ctx.views.get(auth.userId);
      if (!view.subscriptionByFeed.has(params.id)) throw notFound();
      return sendPage(ctx, request, reply, view, input, { feedId: params.id });
    },
  });
}
