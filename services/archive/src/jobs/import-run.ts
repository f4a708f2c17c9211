import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { ArchiveContext } from '../domain/context.js';
import { runImport } from '../domain/imports.js';

export const importRunJob = defineJob({
  name: 'archive.import.run',
  payload: z.object({ importId: z.number().int().positive() }),
  // Long: a 100 MiB upload takes a while; the queue's heartbeat keeps the lease while it runs.
  options: { concurrency: 1, leaseMs: 120_000 },
  // A file that cannot be imported ends the import `failed` with the reason, at once, and nothing of
  // it is visible; a store failure is retried with backoff and ends `failed` after the last attempt.
  handle: (ctx: ArchiveContext, payload, job) => runImport(ctx, payload.importId, job),
});
