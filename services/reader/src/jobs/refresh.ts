// The refresh job of one feed: retention first, then (while anyone subscribes) a conditional GET,
// parsing and storing. A failing feed is not a failing job: the failure is recorded on the feed
// (`last_error`, visible in extended mode) and the next check is scheduled with backoff.
import { FetchError, type FetchResponse } from '@murmur/fetch';
import { handleJob } from '@murmur/jobs';
import { DuplicateKeyError } from '@murmur/store';
import type { ReaderContext } from '../domain/context.js';
import { applyFeedDocument } from '../domain/feed-update.js';
import { intervalBounds } from '../domain/feeds.js';
import { announceToSubscribers, pruneFeed } from '../domain/ingest.js';
import { refreshFeedJob } from '../domain/jobs.js';
import { considerWebSub, pushedFeed } from '../domain/websub.js';
import { permanentLocation } from '../feeds/fetcher.js';
import { failureIntervalMinutes, jittered, retryAfterMs } from '../feeds/schedule.js';
import { FeedParseError } from '../feeds/types.js';
import { webSubTarget } from '../feeds/websub.js';
import type { FeedDoc } from '../store/index.js';

// A failure here is a bug or a store outage, not a failing feed (that is recorded on the feed): the
// feed keeps its entries and is polled again on retry; after the last attempt the scheduler queues it
// again when it is due.
export const refreshFeedJobDefinition = handleJob(
  refreshFeedJob,
  async (ctx: ReaderContext, payload) => void (await refreshFeed(ctx, payload.feedId)),
);

export type RefreshOutcome = 'missing' | 'unsubscribed' | 'not-modified' | 'failed' | 'stored';

export async function refreshFeed(ctx: ReaderContext, feedId: number): Promise<RefreshOutcome> {
  const feed = await ctx.store.feedById(feedId);
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
  await ctx.store.recordFeedFailure(feed._id, {
    lastError: error.slice(0, 500),
    errorCount,
    lastCheckedAt: new Date(now),
    nextCheckAt: new Date(next),
    updatedAt: new Date(now),
  });
  ctx.logger.info({ feedId: feed._id, error }, 'feed fetch failed');
  return 'failed' as const;
}

/**
 * The feed's URL after this fetch: the final URL when every hop was a permanent redirect (301/308),
 * stored at once and announced to subscribers (their subscription shows `feed_url`); else the old
 * one. If the new URL is another feed's already, both feeds stay as they are.
 */
async function followMove(ctx: ReaderContext, feed: FeedDoc, res: FetchResponse): Promise<string> {
  const moved = permanentLocation(res);
  if (moved === null || moved === feed.url) return feed.url;
  try {
    await ctx.store.moveFeed(feed._id, moved, ctx.clock.nowDate());
  } catch (err) {
    if (err instanceof DuplicateKeyError) return feed.url;
    throw err;
  }
  ctx.logger.info({ feedId: feed._id, from: feed.url, to: moved }, 'feed moved permanently');
  await announceToSubscribers(ctx, feed._id, [], true);
  return moved;
}

async function pollFeed(ctx: ReaderContext, feed: FeedDoc): Promise<RefreshOutcome> {
  let res;
  try {
    res = await ctx.fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.lastModified });
  } catch (err) {
    if (err instanceof FetchError) return recordFailure(ctx, feed, err.message, null);
    throw err;
  }
  // A permanent redirect moves the feed whatever the final answer: a moved site usually answers the
  // conditional GET at its new URL with 304, and the old URL must not be polled forever.
  const url = await followMove(ctx, feed, res);
  const nowMs = ctx.clock.nowDate().getTime();
  if (res.status === 304) {
    const pushed = await pushedFeed(ctx, feed._id, nowMs);
    const next = nowMs + jittered(pushed ? ctx.config.READER_POLL_MAX_MINUTES : feed.intervalMinutes);
    await ctx.store.markFeedNotModified(feed._id, new Date(nowMs), new Date(next));
    return 'not-modified';
  }
  if (res.status === 429 || res.status === 503) {
    return recordFailure(ctx, feed, `HTTP ${res.status}`, retryAfterMs(res.headers['retry-after'], nowMs));
  }
  if (res.status < 200 || res.status > 299) return recordFailure(ctx, feed, `HTTP ${res.status}`, null);

  let parsed;
  try {
    parsed = await ctx.parsing.parse(res.body, res.headers['content-type'], res.url);
  } catch (err) {
    if (err instanceof FeedParseError) return recordFailure(ctx, feed, err.message, null);
    throw err;
  }
  if (parsed.kind !== 'feed') return recordFailure(ctx, feed, 'not a feed', null);
  const source = parsed.feed;

  const websub = webSubTarget(res.headers, source, res.url);
  const pushed = await pushedFeed(ctx, feed._id, nowMs);
  try {
    await applyFeedDocument(ctx, feed, source, {
      url,
      baseUrl: res.url,
      etag: res.headers.etag ?? null,
      lastModified: res.headers['last-modified'] ?? null,
      nowMs,
      // While a hub pushes this feed, polling is only the fallback: at the slow end of the interval.
      ...(pushed ? { pollAfterMinutes: ctx.config.READER_POLL_MAX_MINUTES } : {}),
      checked: true,
    });
  } catch (err) {
    // Its items could not be processed (the parser thread's time or memory ran out): nothing stored.
    if (err instanceof FeedParseError) return recordFailure(ctx, feed, err.message, null);
    throw err;
  }
  await considerWebSub(ctx, feed._id, websub);
  return 'stored';
}
