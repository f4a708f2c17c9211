// OPML import and export (docs/api/reader.md "OPML"): an import records its items and queues a job
// that subscribes each; the export lists the subscriptions with their folders (taggings).
import type { z } from 'zod';
import { formatReaderTime, unsupportedMediaType } from '@murmur/core';
import { nextId } from '@murmur/store';
import type { importSchema } from '../shapes.js';
import type { ImportDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { queueImport } from './jobs.js';
import { OpmlError, parseOpml, renderOpml } from './opml.js';

export const importJson = (doc: ImportDoc): z.input<typeof importSchema> => ({
  id: doc._id,
  complete: doc.complete,
  created_at: formatReaderTime(BigInt(doc.createdAt)),
  import_items: doc.items.map((i) => ({ title: i.title, feed_url: i.feed_url, status: i.status })),
});

/** Records an import of `opml` for the user and queues its job; 415 when it is not OPML. */
export async function startImport(ctx: ReaderContext, userId: number, opml: string): Promise<ImportDoc> {
  let feeds;
  try {
    feeds = await parseOpml(opml);
  } catch (err) {
    if (err instanceof OpmlError) throw unsupportedMediaType(`Not an OPML document: ${err.message}.`);
    throw err;
  }
  const doc: ImportDoc = {
    _id: await nextId(ctx.store.raw, 'imports'),
    userId,
    createdAt: Number(ctx.clock.now()),
    complete: feeds.length === 0,
    items: feeds.map((f) => ({
      title: f.title || f.feedUrl,
      feed_url: f.feedUrl,
      status: 'pending',
      tags: f.tags,
    })),
  };
  await ctx.store.insertImport(doc);
  if (feeds.length > 0) await queueImport(ctx, doc._id);
  return doc;
}

/** The user's imports, newest first. */
export async function userImports(ctx: ReaderContext, userId: number): Promise<ImportDoc[]> {
  const docs = await ctx.store.importsOfUser(userId);
  return docs.sort((a, b) => b._id - a._id);
}

export async function userImport(ctx: ReaderContext, userId: number, id: number): Promise<ImportDoc | null> {
  return ctx.store.importOfUser(userId, id);
}

/** The OPML 2.0 export of the user's subscriptions, and when its content last changed. */
export async function exportOpml(
  ctx: ReaderContext,
  userId: number,
  ownerName: string,
): Promise<{ opml: string; changedAt: Date }> {
  const view = await ctx.views.get(userId);
  const taggings = await ctx.store.taggingsOfUser(userId);
  const tagsByFeed = new Map<number, string[]>();
  for (const t of taggings) tagsByFeed.set(t.feedId, [...(tagsByFeed.get(t.feedId) ?? []), t.name]);
  const feeds = view.subscriptions.map((s) => ({
    title: s.title ?? s.feed.title ?? s.feed.url,
    feedUrl: s.feed.url,
    siteUrl: s.feed.siteUrl ?? `${new URL(s.feed.url).origin}/`,
    tags: tagsByFeed.get(s.feedId) ?? [],
  }));
  const { subscriptions, taggings: tagged } = view.listChangedAt;
  const changedAt = subscriptions > tagged ? subscriptions : tagged;
  return { opml: renderOpml(feeds, ownerName, ctx.clock.nowDate()), changedAt };
}
