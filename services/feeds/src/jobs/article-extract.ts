import { handleJob } from '@murmur/jobs';
import type { FeedsContext } from '../domain/context.js';
import { articleExtractJob } from '../domain/jobs.js';
import { extractSavedArticle } from '../domain/saves.js';

// A failure leaves the read-later item as a link paragraph; unreachable pages are retried with
// backoff, refused addresses and pages without a readable article are not.
export const articleExtractJobDefinition = handleJob(articleExtractJob, (ctx: FeedsContext, payload) =>
  extractSavedArticle(ctx, payload.readLaterId),
);
