import { handleJob } from '@murmur/jobs';
import type { ArchiveContext } from '../domain/context.js';
import { runImport } from '../domain/imports.js';
import { importRunJob } from '../domain/jobs.js';

// A file that cannot be imported ends the import `failed` with the reason, at once, and nothing of
// it is visible; a store failure is retried with backoff and ends `failed` after the last attempt.
export const importRunJobDefinition = handleJob(importRunJob, (ctx: ArchiveContext, payload, job) =>
  runImport(ctx, payload.importId, job),
);
