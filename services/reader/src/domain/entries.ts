// Entry queries over a user's view (filters, counts, pages). The view holds only ids and times; the
// page's documents are read by id. The response shape is domain/entry-json.ts.
import type { EntryDoc, ReaderStore } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { timelinePosition, type UserView } from './views.js';

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

/**
 * The page of matching ids (newest first) and how many match in all. Without a feed, read or starred
 * filter every entry matches, so the page is a slice and the count a binary search for `since`: at a
 * million entries a walk of the timeline would cost tens of ms per request. With one, a pass over it.
 */
export function selectEntries(view: UserView, filter: EntryFilter, offset: number, limit: number): EntryPage {
  if (filter.feedId === undefined && filter.read === undefined && filter.starred === undefined) {
    const total = newerThan(view.times, filter.sinceMicros);
    const page: number[] = [];
    for (let i = offset; i < total && page.length < limit; i++) page.push(view.ids[i]!);
    return { ids: page, total };
  }
  // Only unread, or only starred, entries: when they are few beside the timeline, find each one's
  // place in it (a binary search) instead of testing every entry of the timeline against the set.
  if (filter.feedId === undefined && (filter.read === undefined) !== (filter.starred === undefined)) {
    const members = filter.read === false ? view.unread : filter.starred === true ? view.starred : null;
    if (members && members.size * SPARSE_FACTOR < view.ids.length) {
      return pageOfMembers(view, members.keys(), filter.sinceMicros, offset, limit);
    }
  }
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

/** A set this many times smaller than the timeline is paged by lookups rather than by a walk. */
const SPARSE_FACTOR = 8;

/** The page of the timeline's entries that are in `members`, by looking each one's place up. */
function pageOfMembers(
  view: UserView,
  members: Iterable<number>,
  since: number | undefined,
  offset: number,
  limit: number,
): EntryPage {
  const newer = newerThan(view.times, since);
  const places: number[] = [];
  for (const id of members) {
    const at = timelinePosition(view, id);
    if (at !== -1 && at < newer) places.push(at);
  }
  places.sort((a, b) => a - b);
  const page = places.slice(offset, offset + limit).map((at) => view.ids[at]!);
  return { ids: page, total: places.length };
}

/** How many entries of a newest-first timeline are strictly newer than `since` (all when absent). */
function newerThan(times: Float64Array, since: number | undefined): number {
  if (since === undefined) return times.length;
  // times[] does not increase: find the first index at or before `since`.
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! > since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
