// Feed records: one per normalised URL, shared by every subscriber. A new feed is created from the
// discovery fetch (its entries stored before the record appears, so a feed that exists always has
// its entries); later fetches are the refresh job's.
import { DuplicateKeyError, nextId } from '@murmur/store';
import type { VerifiedFeed } from '../feeds/discover.js';
import { itemSourcesOf } from '../feeds/entries.js';
import { nextIntervalMinutes, jittered } from '../feeds/schedule.js';
import type { FeedDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { storeEntries } from './ingest.js';
import { queueIconRefresh } from './jobs.js';

export function intervalBounds(ctx: ReaderContext) {
  return {
    minMinutes: ctx.config.READER_POLL_MIN_MINUTES,
    maxMinutes: ctx.config.READER_POLL_MAX_MINUTES,
    defaultMinutes: ctx.config.READER_POLL_DEFAULT_MINUTES,
  };
}

/** `host[:port]` of the site (the icon key): the site URL's, else the feed URL's. */
export function siteHostOf(siteUrl: string | null, feedUrl: string): string {
  return new URL(siteUrl ?? feedUrl).host.toLowerCase();
}

/** The feed record of a verified feed: the existing one for its URL, or a new one with its entries. */
export async function feedFromDiscovery(ctx: ReaderContext, found: VerifiedFeed): Promise<FeedDoc> {
  const existing = await ctx.store.feedByUrl(found.url);
  if (existing) return existing;

  const feedId = await nextId(ctx.store.raw, 'feeds');
  const sources = itemSourcesOf(found.feed.items, found.url);
  const now = ctx.clock.nowDate();
  const interval = nextIntervalMinutes(
    intervalBounds(ctx),
    ctx.config.READER_POLL_DEFAULT_MINUTES,
    found.feed.items.flatMap((i) => (i.published ? [i.published] : [])),
    true,
    now.getTime(),
  );
  const doc: FeedDoc = {
    _id: feedId,
    url: found.url,
    siteUrl: found.feed.siteUrl,
    siteHost: siteHostOf(found.feed.siteUrl, found.url),
    title: found.feed.title,
    format: found.feed.format,
    jsonFeed: found.feed.jsonFeed,
    etag: found.etag,
    lastModified: found.lastModified,
    subscriberCount: 0,
    intervalMinutes: interval,
    nextCheckAt: new Date(now.getTime() + jittered(interval)),
    lastCheckedAt: now,
    lastError: null,
    errorCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  // The record is written with the entries, after them (one step: one transaction on the embedded
  // store, in this order on MongoDB), and the site's icon asked for.
  let lost = false;
  const { added } = await storeEntries(ctx, feedId, sources, {
    newFeed: true,
    alongside: async () => {
      try {
        await ctx.store.insertFeed(doc);
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        lost = true;
        return;
      }
      await ensureIcon(ctx, doc);
    },
  });
  if (lost) {
    // Someone created the same feed meanwhile: ours never became visible, so it simply goes.
    await ctx.store.deleteEntries(added);
    await ctx.store.deleteTimeline(feedId);
    const winner = await ctx.store.feedByUrl(found.url);
    if (!winner) throw new Error(`feed ${found.url} was created meanwhile and is gone`);
    return winner;
  }
  return doc;
}

/** Queues an icon lookup for the feed's site unless one is known or under way. */
export async function ensureIcon(ctx: ReaderContext, feed: FeedDoc): Promise<void> {
  const icon = await ctx.store.iconOfHost(feed.siteHost);
  if (icon) return;
  await queueIconRefresh(ctx, {
    host: feed.siteHost,
    siteUrl: feed.siteUrl ?? new URL(feed.url).origin + '/',
  });
}
