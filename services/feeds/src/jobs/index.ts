// Every job of the feeds service, registered on its queue with the service's context. Both fetch
// pages, so both run at most FEEDS_FETCH_CONCURRENCY at once in a process.
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { FeedsContext } from '../domain/context.js';
import { articleExtractJobDefinition } from './article-extract.js';
import { bookmarkFetchJobDefinition } from './bookmark-fetch.js';

export function registerFeedsJobs(queue: JobQueue, ctx: FeedsContext): void {
  const concurrency = ctx.config.FEEDS_FETCH_CONCURRENCY;
  registerJobs(
    queue,
    ctx,
    [bookmarkFetchJobDefinition, articleExtractJobDefinition].map((def) => ({
      ...def,
      options: { ...def.options, concurrency },
    })),
  );
}
