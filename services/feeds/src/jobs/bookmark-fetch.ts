import { handleJob } from '@murmur/jobs';
import type { FeedsContext } from '../domain/context.js';
import { bookmarkFetchJob } from '../domain/jobs.js';
import { fetchBookmark } from '../domain/saves.js';

// A failure leaves the bookmark with its URL as title (and counted as a link, not a podcast episode);
// unreachable pages are retried with backoff, refused addresses are not.
export const bookmarkFetchJobDefinition = handleJob(bookmarkFetchJob, (ctx: FeedsContext, payload) =>
  fetchBookmark(ctx, payload.bookmarkId),
);
