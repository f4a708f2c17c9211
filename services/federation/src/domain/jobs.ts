// The jobs the federation service's domain queues, declared without their handlers
// (docs/service-template.md, `jobs/`): the domain imports this file to enqueue them, and each
// `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

/** Turns a change of a local post into its activity and one delivery job per receiving host. */
export const distributePostJob = declareJob({
  name: 'federation.post.distribute',
  payload: z.object({
    postId: z.number().int().positive(),
    rev: z.number().int(),
    kind: z.enum(['create', 'update', 'delete']),
  }),
  options: { concurrency: 4, leaseMs: 120_000 },
});

/** Sends one activity to the inboxes of one host (its shared inbox, or each follower's own). */
export const deliverActivityJob = declareJob({
  name: 'federation.activity.deliver',
  payload: z.object({
    activityId: z.string().min(1).max(2048),
    host: z.string().min(1).max(300),
    inboxes: z.array(z.string().max(2048)).min(1).max(100_000),
  }),
  options: { concurrency: 16, leaseMs: 120_000 },
});
