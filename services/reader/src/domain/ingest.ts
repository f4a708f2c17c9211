// Storing a feed's entries: new ones get ids and `created_at` from one counter and one clock (so ids
// increase with arrival), join the feed's timeline and become unread for every subscriber; re-seen
// ones are updated in place (no new unread). Only one writer per feed at a time: the refresh job
// holds the feed's job key, and a brand-new feed is written before anyone else can see it. So the
// writes of one fetch, made as one step, conflict with nothing: on the embedded store they fail
// together or not at all in practice (a broken store); the job is retried either way.
import { createHash } from 'node:crypto';
import type { ItemSource } from '../feeds/entries.js';
import type { EntryDoc, FeedDoc, ListName } from '../store/index.js';
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

export interface IngestOptions {
  /** The feed was created just now (a new id): none of its entries can exist, none are looked up. */
  newFeed?: boolean;
  /**
   * Written in the same step as the entries (ReaderStore.together: one transaction and one fsync
   * wait on the embedded store; after them on MongoDB): the feed's record. Gets the new entries' ids.
   */
  alongside?: (added: number[]) => Promise<unknown>;
  /**
   * Tell the feed's subscribers, in that same step: the new entries become unread for each, and
   * their views refresh when anything they show changed (an entry, or the feed when `feedChanged`).
   */
  announce?: {
    feedChanged: boolean;
    /**
     * The feed's record as this step stores it (asked once the step's writes are under way), for the
     * subscribers' cached views; null or absent → views showing a changed feed are rebuilt.
     */
    feedAfter?: () => FeedDoc | null;
  };
}

/**
 * Stores one fetch's entries. `sources` are newest first (document order); new ones are numbered
 * oldest first. An item whose source is the one its stored entry was made from is left alone without
 * being derived (sanitised) again. Everything is read first; then the changed entries, the new ones,
 * the feed's timeline, `alongside` and the subscribers' unread ids are written as one step — one
 * fsync wait for the whole fetch instead of one per entry and per subscriber (issue 38).
 */
export async function storeEntries(
  ctx: ReaderContext,
  feedId: number,
  sources: ItemSource[],
  options: IngestOptions = {},
): Promise<IngestResult> {
  const existing =
    sources.length === 0 || options.newFeed
      ? []
      : await ctx.store.entriesOfFeedByKeys(
          feedId,
          sources.map((s) => s.key),
        );
  const byKey = new Map(existing.map((e) => [e.key, e]));
  const now = ctx.clock.nowDate();

  // Re-seen items whose source changed, and new ones (entries deleted by retention may still be listed
  // by the feed; they do not come back as new): derived together, on the parser thread if there is one.
  const reseen = sources.filter((s) => {
    const old = byKey.get(s.key);
    return old !== undefined && old.sourceHash !== s.digest;
  });
  let fresh = sources.filter((s) => !byKey.has(s.key)).reverse();
  if (fresh.length > 0 && !options.newFeed) {
    const prunedKeys = await ctx.store.prunedKeysOfFeed(feedId);
    if (prunedKeys && prunedKeys.keys.length > 0) {
      const pruned = new Set(prunedKeys.keys);
      fresh = fresh.filter((s) => !pruned.has(keyHash(s.key)));
    }
  }
  const derived = await ctx.parsing.derive([...reseen, ...fresh]);

  const changed: { id: number; fields: Partial<EntryDoc> }[] = [];
  let updated = 0;
  reseen.forEach((source, i) => {
    const old = byKey.get(source.key)!;
    const { published, ...rest } = derived[i]!;
    if (old.hash === rest.hash) {
      // What clients see is the same (an entry stored before sources were digested): remember the
      // digest, so the next poll does not derive it again.
      changed.push({ id: old._id, fields: { sourceHash: rest.sourceHash } });
      return;
    }
    changed.push({ id: old._id, fields: { ...rest, published: published ?? old.published, updatedAt: now } });
    updated++;
  });
  const announce = options.announce;
  const subscribers = announce ? await ctx.store.subscribersOfFeed(feedId) : [];

  const write = async (ids: number[], docs: EntryDoc[]): Promise<number[]> => {
    const lists: ListName[] = announce?.feedChanged ? ['subscriptions'] : [];
    const tell = announce !== undefined && (ids.length > 0 || updated > 0 || announce.feedChanged);
    await ctx.store.together([
      ...changed.map((c) => () => ctx.store.updateEntry(c.id, c.fields)),
      ...(docs.length === 0
        ? []
        : [
            () => ctx.store.insertEntries(docs),
            () =>
              ctx.store.appendToTimeline(
                feedId,
                ids,
                docs.map((d) => d.createdAt),
              ),
          ]),
      ...(options.alongside ? [() => options.alongside!(ids)] : []),
      ...(tell
        ? subscribers.map(
            ({ userId }) =>
              () =>
                // This process's cached view of the user takes the new entries in place (no rebuild);
                // the user's requests meanwhile wait for this write rather than rebuild.
                ctx.views.writing(userId, async () => {
                  const pushed = ids.length > 0 ? await ctx.states.pushUnread(userId, ids, lists) : null;
                  const written = pushed ?? (await ctx.states.touch(userId, lists));
                  ctx.views.afterArrival(userId, written, {
                    feedId,
                    ids,
                    times: docs.map((d) => d.createdAt),
                    feed: announce?.feedAfter?.() ?? null,
                  });
                  // A fold changes no set: the view stays as it is, at the fold's version.
                  const folded = pushed?.folded;
                  if (folded) ctx.views.afterWrite({ _id: userId, ...folded }, () => undefined);
                }),
          )
        : []),
    ]);
    return ids;
  };

  if (fresh.length === 0) return { added: await write([], []), updated };
  const freshFields = derived.slice(reseen.length);
  const added = await ctx.clock.stampBatch(
    fresh.length,
    (n) => ctx.store.reserveIds('entries', n),
    (ids, stamps) =>
      write(
        ids,
        freshFields.map((f, i) => {
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
        }),
      ),
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
