// The refresh job of one feed: retention first, then (while anyone subscribes) a conditional GET,
// parsing and storing. A failing feed is not a failing job: the failure is recorded on the feed
// (`last_error`, visible in extended mode) and the next check is scheduled with backoff.
import { DuplicateKeyError, FetchError } from '@murmur/platform';
import type { ReaderContext } from '../domain/context.js';
import { ensureIcon, intervalBounds, siteHostOf } from '../domain/feeds.js';
import { announceToSubscribers, pruneFeed, storeEntries } from '../domain/ingest.js';
import { entryFieldsOf } from '../feeds/entries.js';
import { httpUrl } from '../feeds/html.js';
import { parseFetched } from '../feeds/parse.js';
import { failureIntervalMinutes, jittered, nextIntervalMinutes, retryAfterMs } from '../feeds/schedule.js';
import { FeedParseError } from '../feeds/types.js';
import type { FeedDoc } from '../store.js';

export interface RefreshPayload {
  feedId: number;
}

export type RefreshOutcome = 'missing' | 'unsubscribed' | 'not-modified' | 'failed' | 'stored';

export async function refreshFeed(ctx: ReaderContext, feedId: number): Promise<RefreshOutcome> {
  const feed = await ctx.store.feeds.findOne({ _id: feedId });
  if (!feed) return 'missing';
  await pruneFeed(ctx, feedId);
  if (feed.subscriberCount <= 0) return 'unsubscribed';
  return pollFeed(ctx, feed);
}

async function recordFailure(ctx: ReaderContext, feed: FeedDoc, error: string, notBeforeMs: number | null) {
  const now = ctx.clock.nowDate().getTime();
  const errorCount = feed.errorCount + 1;
  const minutes = failureIntervalMinutes(intervalBounds(ctx), feed.intervalMinutes, errorCount);
  const next = Math.max(now + jittered(minutes), notBeforeMs === null ? 0 : now + notBeforeMs);
  await ctx.store.feeds.updateOne(
    { _id: feed._id },
    {
      $set: {
        lastError: error.slice(0, 500),
        errorCount,
        lastCheckedAt: new Date(now),
        nextCheckAt: new Date(next),
        updatedAt: new Date(now),
      },
    },
  );
  ctx.logger.info({ feedId: feed._id, error }, 'feed fetch failed');
  return 'failed' as const;
}

async function pollFeed(ctx: ReaderContext, feed: FeedDoc): Promise<RefreshOutcome> {
  let res;
  try {
    res = await ctx.fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.lastModified });
  } catch (err) {
    if (err instanceof FetchError) return recordFailure(ctx, feed, err.message, null);
    throw err;
  }
  const nowMs = ctx.clock.nowDate().getTime();
  if (res.status === 304) {
    const next = nowMs + jittered(feed.intervalMinutes);
    await ctx.store.feeds.updateOne(
      { _id: feed._id },
      {
        $set: { lastCheckedAt: new Date(nowMs), nextCheckAt: new Date(next), lastError: null, errorCount: 0 },
      },
    );
    return 'not-modified';
  }
  if (res.status === 429 || res.status === 503) {
    return recordFailure(ctx, feed, `HTTP ${res.status}`, retryAfterMs(res.headers['retry-after'], nowMs));
  }
  if (res.status < 200 || res.status > 299) return recordFailure(ctx, feed, `HTTP ${res.status}`, null);

  let parsed;
  try {
    parsed = await parseFetched(res.body, res.headers['content-type'], res.url);
  } catch (err) {
    if (err instanceof FeedParseError) return recordFailure(ctx, feed, err.message, null);
    throw err;
  }
  if (parsed.kind !== 'feed') return recordFailure(ctx, feed, 'not a feed', null);
  const source = parsed.feed;

  // A permanent redirect moves the feed; if the new URL is another feed's already, both stay.
  let url = feed.url;
  const moved = res.permanentRedirect ? httpUrl(res.url) : null;
  if (moved && moved !== feed.url) {
    try {
      await ctx.store.feeds.updateOne({ _id: feed._id }, { $set: { url: moved } });
      url = moved;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  const { added, updated } = await storeEntries(ctx, feed._id, entryFieldsOf(source.items, res.url));
  const interval = nextIntervalMinutes(
    intervalBounds(ctx),
    feed.intervalMinutes,
    source.items.flatMap((i) => (i.published ? [i.published] : [])),
    added.length > 0,
    nowMs,
  );
  const siteHost = siteHostOf(source.siteUrl, url);
  const metaChanged =
    url !== feed.url ||
    source.title !== feed.title ||
    source.siteUrl !== feed.siteUrl ||
    JSON.stringify(source.jsonFeed) !== JSON.stringify(feed.jsonFeed);
  const next = {
    ...feed,
    url,
    siteHost,
    title: source.title,
    siteUrl: source.siteUrl,
    jsonFeed: source.jsonFeed,
  };
  await ctx.store.feeds.updateOne(
    { _id: feed._id },
    {
      $set: {
        title: source.title,
        siteUrl: source.siteUrl,
        siteHost,
        format: source.format,
        jsonFeed: source.jsonFeed,
        etag: res.headers.etag ?? null,
        lastModified: res.headers['last-modified'] ?? null,
        intervalMinutes: interval,
        nextCheckAt: new Date(nowMs + jittered(interval)),
        lastCheckedAt: new Date(nowMs),
        lastError: null,
        errorCount: 0,
        updatedAt: new Date(nowMs),
      },
    },
  );
  if (added.length > 0 || updated > 0 || metaChanged) await announceToSubscribers(ctx, feed._id, added);
  if (siteHost !== feed.siteHost) await ensureIcon(ctx, next);
  return 'stored';
}
