// Entry queries over a user's view (filters, counts, pages). The view holds only ids and times; the
// page's documents are read by id. The response shape is domain/entry-json.ts.
import type { EntryDoc, ReaderStore } from '../store/index.js';
import type { ReaderContext } from './context.js';
import type { UserView } from './views.js';

export interface EntryFilter {
  read?: boolean;
  starred?: boolean;
  /** Entries with `created_at` strictly after this (µs). */
  sinceMicros?: number;
  feedId?: number;
}

export interface EntryPage {
  ids: number[];
  total: number;
}

/** The page of matching ids (newest first) and how many match in all. One pass over the timeline. */
export function selectEntries(view: UserView, filter: EntryFilter, offset: number, limit: number): EntryPage {
  const { ids, times, feeds } = view;
  const page: number[] = [];
  let total = 0;
  const since = filter.sinceMicros;
  for (let i = 0; i < ids.length; i++) {
    // Newest first: everything after the first entry at or before `since` is older still.
    if (since !== undefined && times[i]! <= since) break;
    if (filter.feedId !== undefined && feeds[i] !== filter.feedId) continue;
    const id = ids[i]!;
    if (filter.read !== undefined && view.unread.has(id) === filter.read) continue;
    if (filter.starred !== undefined && view.starred.has(id) !== filter.starred) continue;
    if (total >= offset && page.length < limit) page.push(id);
    total++;
  }
  return { ids: page, total };
}

/** Is the entry visible to the user: in a subscribed feed, or starred? */
export function isVisible(view: UserView, entry: Pick<EntryDoc, '_id' | 'feedId'>): boolean {
  return view.subscriptionByFeed.has(entry.feedId) || view.starred.has(entry._id);
}

/** The documents of `ids`, in the order of `ids` (missing ones left out). */
export async function loadEntries(store: ReaderStore, ids: number[]): Promise<EntryDoc[]> {
  if (ids.length === 0) return [];
  const docs = await store.entriesByIds(ids);
  const byId = new Map(docs.map((d) => [d._id, d]));
  return ids.map((id) => byId.get(id)).filter((d): d is EntryDoc => d !== undefined);
}

/** The visible ones among `ids`, newest first, de-duplicated. */
export async function visibleEntries(store: ReaderStore, view: UserView, ids: number[]): Promise<EntryDoc[]> {
  const docs = await loadEntries(store, [...new Set(ids)]);
  return docs.filter((d) => isVisible(view, d)).sort((a, b) => b.createdAt - a.createdAt || b._id - a._id);
}

/** The visible ones among `ids` for the user of `view`, newest first, de-duplicated. */
export function userEntries(ctx: ReaderContext, view: UserView, ids: number[]): Promise<EntryDoc[]> {
  return visibleEntries(ctx.store, view, ids);
}

/** One page of the view's entries matching `filter` (newest first), and how many match in all. */
export async function entryPage(
  ctx: ReaderContext,
  view: UserView,
  filter: EntryFilter,
  offset: number,
  limit: number,
): Promise<{ docs: EntryDoc[]; total: number }> {
  const selected = selectEntries(view, filter, offset, limit);
  return { docs: await loadEntries(ctx.store, selected.ids), total: selected.total };
}
