// A feed's new document, however it came (a poll, or a WebSub hub's delivery): its entries stored with
// the one parser's output and the one dedupe (ingest.ts), the feed's record updated, subscribers told —
// one step, one fsync wait. The poll (jobs/refresh.ts) and the push (domain/websub.ts) differ only in
// the validators they keep and when the next poll is due.
import type { FeedDoc } from '../store/index.js';
import { itemSourcesOf } from '../feeds/entries.js';
import { jittered, nextIntervalMinutes } from '../feeds/schedule.js';
import type { ParsedFeed } from '../feeds/types.js';
import type { ReaderContext } from './context.js';
import { ensureIcon, intervalBounds, siteHostOf } from './feeds.js';
import { storeEntries, type IngestResult } from './ingest.js';

export interface FeedUpdate {
  /** The feed's URL after this fetch (a permanent redirect moved it), else its stored one. */
  url: string;
  /** Relative links of items resolve against this (the document's own URL). */
  baseUrl: string;
  etag: string | null;
  lastModified: string | null;
  /** Milliseconds: the time of the update. */
  nowMs: number;
  /**
   * The next poll this many minutes from now whatever the posting rate says (while a hub pushes, the
   * slow end of the interval); undefined → the adaptive interval.
   */
  pollAfterMinutes?: number;
  /** Counts as a check of the feed (a poll); a push leaves `lastCheckedAt` as it was. */
  checked: boolean;
}

export async function applyFeedDocument(
  ctx: ReaderContext,
  feed: FeedDoc,
  source: ParsedFeed,
  update: FeedUpdate,
): Promise<IngestResult> {
  const { url, nowMs } = update;
  const siteHost = siteHostOf(source.siteUrl, url);
  // A move was announced when it happened (jobs/refresh.ts, followMove).
  const metaChanged =
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
  let recorded: FeedDoc | null = null;
  const result = await storeEntries(ctx, feed._id, itemSourcesOf(source.items, update.baseUrl), {
    announce: { feedChanged: metaChanged, feedAfter: () => recorded },
    alongside: (added) => {
      const interval = nextIntervalMinutes(
        intervalBounds(ctx),
        feed.intervalMinutes,
        source.items.flatMap((i) => (i.published ? [i.published] : [])),
        added.length > 0,
        nowMs,
      );
      const fields = {
        title: source.title,
        siteUrl: source.siteUrl,
        siteHost,
        format: source.format,
        jsonFeed: source.jsonFeed,
        etag: update.etag,
        lastModified: update.lastModified,
        intervalMinutes: interval,
        nextCheckAt: new Date(nowMs + jittered(update.pollAfterMinutes ?? interval)),
        lastCheckedAt: update.checked ? new Date(nowMs) : feed.lastCheckedAt,
        lastError: null,
        errorCount: 0,
        updatedAt: new Date(nowMs),
      };
      recorded = { ...next, ...fields };
      return ctx.store.recordFeedFetched(feed._id, fields);
    },
  });
  if (siteHost !== feed.siteHost) await ensureIcon(ctx, next);
  return result;
}
