// Storing a feed's entries: new ones get ids and `created_at` from one counter and one clock (so ids
// increase with arrival), join the feed's timeline and become unread for every subscriber; re-seen
// ones are updated in place (no new unread). Only one writer per feed at a time: the refresh job
// holds the feed's job key, and a brand-new feed is written before anyone else can see it.
import { createHash } from 'node:crypto';
import type { EntryFields } from '../feeds/entries.js';
import type { EntryDoc, ListName } from '../store/index.js';
import type { ReaderContext } from './context.js';

/** Pruned keys remembered per feed (enough for any real feed document). */
export const MAX_PRUNED_KEYS = 5000;

/** Short hash of an entry key, for the pruned-keys list. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

export interface IngestResult {
  added: number[];
  updated: number;
}

/** Entries in `fields` are newest first (document order); they are numbered oldest first. */
export async function storeEntries(
  ctx: ReaderContext,
  feedId: number,
  fields: EntryFields[],
): Promise<IngestResult> {
  if (fields.length === 0) return { added: [], updated: 0 };
  const existing = await ctx.store.entriesOfFeedByKeys(
    feedId,
    fields.map((f) => f.key),
  );
  const byKey = new Map(existing.map((e) => [e.key, e]));
  const now = ctx.clock.nowDate();

  let updated = 0;
  for (const f of fields) {
    const old = byKey.get(f.key);
    if (!old || old.hash === f.hash) continue;
    const { published, ...rest } = f;
    await ctx.store.updateEntry(old._id, { ...rest, published: published ?? old.published, updatedAt: now });
    updated++;
  }

  let fresh = fields.filter((f) => !byKey.has(f.key)).reverse();
  if (fresh.length === 0) return { added: [], updated };
  // Entries deleted by retention may still be listed by the feed; they do not come back as new.
  const prunedKeys = await ctx.store.prunedKeysOfFeed(feedId);
  if (prunedKeys && prunedKeys.keys.length > 0) {
    const pruned = new Set(prunedKeys.keys);
    fresh = fresh.filter((f) => !pruned.has(keyHash(f.key)));
    if (fresh.length === 0) return { added: [], updated };
  }
  const added = await ctx.clock.stampBatch(
    fresh.length,
    (n) => ctx.store.reserveIds('entries', n),
    async (ids, stamps) => {
      const docs: EntryDoc[] = fresh.map((f, i) => {
        const createdAt = Number(stamps[i]!);
        return {
          _id: ids[i]!,
          feedId,
          ...f,
          published: f.published ?? createdAt,
          createdAt,
          updatedAt: now,
          stars: 0,
        };
      });
      await ctx.store.insertEntries(docs);
      await ctx.store.appendToTimeline(
        feedId,
        ids,
        docs.map((d) => d.createdAt),
      );
      return ids;
    },
  );
  return { added, updated };
}

/**
 * Makes `added` unread for every subscriber of the feed and tells every subscriber's views to
 * refresh. `feedChanged`: what subscriptions show of the feed (title, URLs) changed too.
 */
export async function announceToSubscribers(
  ctx: ReaderContext,
  feedId: number,
  added: number[],
  feedChanged: boolean,
): Promise<void> {
  const lists: ListName[] = feedChanged ? ['subscriptions'] : [];
  const subscribers = await ctx.store.subscribersOfFeed(feedId);
  for (const { userId } of subscribers) {
    if (added.length > 0) await ctx.states.pushUnread(userId, added, lists);
    else await ctx.states.touch(userId, lists);
  }
}

/**
 * Retention: deletes the feed's unstarred entries older than READER_RETENTION_DAYS, from the timeline
 * and from subscribers' unread sets too. Returns how many were deleted.
 */
export async function pruneFeed(ctx: ReaderContext, feedId: number): Promise<number> {
  const timeline = await ctx.store.timelineOfFeed(feedId);
  if (!timeline || timeline.ids.length === 0) return 0;
  const cutoff = (ctx.clock.nowDate().getTime() - ctx.config.READER_RETENTION_DAYS * 86_400_000) * 1000;
  const old = timeline.ids.filter((_, i) => timeline.times[i]! < cutoff);
  if (old.length === 0) return 0;
  const starred = await ctx.store.starredEntriesAmong(old);
  const keep = new Set(starred.map((e) => e._id));
  const doomed = new Set(old.filter((id) => !keep.has(id)));
  if (doomed.size === 0) return 0;

  // Subscribers first, so no unread id ever points at a deleted entry.
  const subscribers = await ctx.store.subscribersOfFeed(feedId);
  for (const { userId } of subscribers) {
    await ctx.states.change(userId, null, (current) => ({
      markRead: [...doomed].filter((id) => current.unread.has(id)),
    }));
  }
  const ids: number[] = [];
  const times: number[] = [];
  timeline.ids.forEach((id, i) => {
    if (!doomed.has(id)) {
      ids.push(id);
      times.push(timeline.times[i]!);
    }
  });
  const keys = await ctx.store.keysOfEntries([...doomed]);
  await ctx.store.addPrunedKeys(
    feedId,
    keys.map((e) => keyHash(e.key)),
    MAX_PRUNED_KEYS,
  );
  await ctx.store.setTimeline(feedId, ids, times);
  await ctx.store.deleteEntries([...doomed]);
  for (const { userId } of subscribers) await ctx.states.touch(userId);
  return doomed.size;
}
