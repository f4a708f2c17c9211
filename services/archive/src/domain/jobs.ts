// The jobs the archive's domain queues, declared without their handlers (docs/service-template.md, `jobs/`):
// the domain imports this file to enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

export const importRunJob = declareJob({
  name: 'archive.import.run',
  payload: z.object({ importId: z.number().int().positive() }),
  // Long: a 100 MiB upload takes a while; the queue's heartbeat keeps the lease while it runs.
  options: { concurrency: 1, leaseMs: 120_000 },
});
