// The jobs publishing's domain queues, declared without their handlers (docs/service-template.md, `jobs/`):
// the domain imports this file to enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

/** Publishes a scheduled post when its time comes. */
export const publishPostJob = declareJob({
  name: 'publishing.post.publish',
  // Jobs queued by versions before the rename still run.
  formerNames: ['publish-scheduled-post'],
  payload: z.object({ postId: z.number().int().positive() }),
  options: { concurrency: 2 },
});
