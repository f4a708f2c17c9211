import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { FeedsContext } from '../domain/context.js';
import { fetchBookmark } from '../domain/saves.js';

export const bookmarkFetchJob = defineJob({
  name: 'feeds.bookmark.fetch',
  payload: z.object({ bookmarkId: z.number().int().positive() }),
  options: { concurrency: 4, leaseMs: 60_000 },
  // A failure leaves the bookmark with its URL as title (and counted as a link, not a podcast episode);
  // unreachable pages are retried with backoff, refused addresses are not.
  handle: (ctx: FeedsContext, payload) => fetchBookmark(ctx, payload.bookmarkId),
});
