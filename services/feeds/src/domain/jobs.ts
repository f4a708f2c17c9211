// The jobs the feeds service's domain queues, declared without their handlers (docs/service-template.md, `jobs/`):
// the domain imports this file to enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

export const bookmarkFetchJob = declareJob({
  name: 'feeds.bookmark.fetch',
  payload: z.object({ bookmarkId: z.number().int().positive() }),
  options: { concurrency: 4, leaseMs: 60_000 },
});

export const articleExtractJob = declareJob({
  name: 'feeds.article.extract',
  payload: z.object({ readLaterId: z.number().int().positive() }),
  options: { concurrency: 4, leaseMs: 60_000 },
});
