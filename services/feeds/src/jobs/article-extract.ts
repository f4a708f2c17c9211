import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { FeedsContext } from '../domain/context.js';
import { extractSavedArticle } from '../domain/saves.js';

export const articleExtractJob = defineJob({
  name: 'feeds.article.extract',
  payload: z.object({ readLaterId: z.number().int().positive() }),
  options: { concurrency: 4, leaseMs: 60_000 },
  // A failure leaves the read-later item as a link paragraph; unreachable pages are retried with
  // backoff, refused addresses and pages without a readable article are not.
  handle: (ctx: FeedsContext, payload) => extractSavedArticle(ctx, payload.readLaterId),
});
