// The jobs the webmention service's domain queues, declared without their handlers (docs/service-template.md, `jobs/`):
// the domain imports this file to enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

export const verifyMentionJob = declareJob({
  name: 'webmention.mention.verify',
  payload: z.object({ source: z.string(), target: z.string() }),
  options: { concurrency: 8, leaseMs: 60_000 },
});

export const sendMentionJob = declareJob({
  name: 'webmention.mention.send',
  payload: z.object({ postId: z.number().int().positive(), source: z.string(), target: z.string() }),
  options: { concurrency: 4, leaseMs: 90_000 },
});
