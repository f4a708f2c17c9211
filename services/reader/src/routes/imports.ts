// OPML import (a job subscribes each feed; the import reports per-item status) and export.
import type { FastifyInstance } from 'fastify';
import { formatReaderTime, nextId, notFound, unsupportedMediaType } from '@murmur/platform';
import { JOB, type ReaderContext } from '../domain/context.js';
import { OpmlError, parseOpml, renderOpml } from '../domain/opml.js';
import type { ImportDoc } from '../store.js';
import { setLastModified } from './http-cache.js';
import { pathId } from './params.js';
import { credentialKey, readerRoute, type RouteScopes } from './route.js';
import { importSchema } from './schemas.js';
import { z } from 'zod';

const OPML_BODY_LIMIT = 5 * 1024 * 1024;
const XML_TYPES = ['text/xml', 'application/xml'];

const importJson = (doc: ImportDoc) => ({
  id: doc._id,
  complete: doc.complete,
  created_at: formatReaderTime(BigInt(doc.createdAt)),
  import_items: doc.items.map((i) => ({ title: i.title, feed_url: i.feed_url, status: i.status })),
});

export function registerImportRoutes(scope: FastifyInstance, scopes: RouteScopes, ctx: ReaderContext): void {
  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/v2/imports.json',
    scope: 'follow',
    xml: true,
    bodyLimit: OPML_BODY_LIMIT,
    timeoutMs: 60_000,
    rateLimit: {
      max: ctx.config.READER_IMPORT_LIMIT_PER_HOUR,
      timeWindow: 3_600_000,
      keyGenerator: credentialKey,
    },
    response: { 200: importSchema },
    handler: async ({ auth, request }) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!XML_TYPES.includes(type) || typeof request.body !== 'string') {
        throw unsupportedMediaType('The import takes an OPML document (text/xml).');
      }
      let feeds;
      try {
        feeds = parseOpml(request.body);
      } catch (err) {
        if (err instanceof OpmlError) throw unsupportedMediaType(`Not an OPML document: ${err.message}.`);
        throw err;
      }
      const doc: ImportDoc = {
        _id: await nextId(ctx.store.raw, 'imports'),
        userId: auth.userId,
        createdAt: Number(ctx.clock.now()),
        complete: feeds.length === 0,
        items: feeds.map((f) => ({
          title: f.title || f.feedUrl,
          feed_url: f.feedUrl,
          status: 'pending',
          tags: f.tags,
        })),
      };
      await ctx.store.imports.insertOne(doc);
      if (feeds.length > 0)
        await ctx.jobs.enqueue(JOB.import, { importId: doc._id }, { key: `import:${doc._id}` });
      return importJson(doc);
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/imports.json',
    scope: 'read',
    response: { 200: z.array(importSchema) },
    handler: async ({ auth }) => {
      const docs = await ctx.store.imports.find({ userId: auth.userId });
      return docs.sort((a, b) => b._id - a._id).map(importJson);
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/imports/:id.json',
    scope: 'read',
    params: pathId,
    response: { 200: importSchema },
    handler: async ({ params, auth }) => {
      const doc = await ctx.store.imports.findOne({ _id: params.id, userId: auth.userId });
      if (!doc) throw notFound();
      return importJson(doc);
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/subscriptions.xml',
    scope: 'read',
    handler: async ({ auth, reply }) => {
      const view = await ctx.views.get(auth.userId);
      const taggings = await ctx.store.taggings.find({ userId: auth.userId });
      const tagsByFeed = new Map<number, string[]>();
      for (const t of taggings) tagsByFeed.set(t.feedId, [...(tagsByFeed.get(t.feedId) ?? []), t.name]);
      const feeds = view.subscriptions.map((s) => ({
        title: s.title ?? s.feed.title ?? s.feed.url,
        feedUrl: s.feed.url,
        siteUrl: s.feed.siteUrl ?? `${new URL(s.feed.url).origin}/`,
        tags: tagsByFeed.get(s.feedId) ?? [],
      }));
      setLastModified(reply, view.updatedAt, ctx.clock);
      return reply
        .type('text/xml; charset=utf-8')
        .send(renderOpml(feeds, auth.username, ctx.clock.nowDate()));
    },
  });
}
