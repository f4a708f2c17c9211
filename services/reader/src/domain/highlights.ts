// Highlights (docs/api/reader.md "Highlights"): passages of an entry the user keeps. A highlight is
// made on a visible entry and keeps a copy of its title and URL, so it survives unsubscribing.
import { badRequest, notFound } from '@murmur/core';
import { nextId } from '@murmur/store';
import type { EntryDoc, HighlightDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { visibleEntries } from './entries.js';

export interface NewHighlight {
  text: string;
  start?: number;
  end?: number;
}

async function visibleEntry(ctx: ReaderContext, userId: number, entryId: number): Promise<EntryDoc> {
  const [entry] = await visibleEntries(ctx.store, await ctx.views.get(userId), [entryId]);
  if (!entry) throw notFound('No such entry.');
  return entry;
}

/** One page of the user's highlights, newest first, and whether more follow. */
export async function userHighlights(
  ctx: ReaderContext,
  userId: number,
  offset: number,
  limit: number,
): Promise<{ page: HighlightDoc[]; more: boolean }> {
  const all = await ctx.store.highlightsOfUser(userId);
  return { page: all.slice(offset, offset + limit), more: offset + limit < all.length };
}

/** The user's highlights of one visible entry, newest first; 404 when the entry is not visible. */
export async function entryHighlights(
  ctx: ReaderContext,
  userId: number,
  entryId: number,
): Promise<HighlightDoc[]> {
  await visibleEntry(ctx, userId, entryId);
  return ctx.store.highlightsOfEntry(userId, entryId);
}

/** Creates a highlight; resolves to its id and the entry's highlight count for this user. */
export async function createHighlight(
  ctx: ReaderContext,
  userId: number,
  entryId: number,
  input: NewHighlight,
): Promise<{ id: number; count: number }> {
  if (input.text.trim() === '') throw badRequest('text: must not be blank', 'text');
  if (input.start !== undefined && input.end !== undefined && input.end < input.start) {
    throw badRequest('end: must not be smaller than start', 'end');
  }
  const entry = await visibleEntry(ctx, userId, entryId);
  const doc: HighlightDoc = {
    _id: await nextId(ctx.store.raw, 'highlights'),
    userId,
    entryId: entry._id,
    text: input.text,
    start: input.start ?? null,
    end: input.end ?? null,
    createdAt: ctx.clock.nowDate(),
    entryTitle: entry.title,
    entryUrl: entry.url,
  };
  await ctx.store.insertHighlight(doc);
  const count = await ctx.store.highlightCountOfEntry(userId, entry._id);
  return { id: doc._id, count };
}

/** Deletes the user's highlight of that entry; 404 when there is none. */
export async function deleteHighlight(
  ctx: ReaderContext,
  userId: number,
  entryId: number,
  highlightId: number,
): Promise<void> {
  const deleted = await ctx.store.deleteHighlightOfEntry(userId, entryId, highlightId);
  if (!deleted) throw notFound('No such highlight.');
}
