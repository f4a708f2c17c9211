// Publishes a scheduled post when its time comes.
import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { PublishingContext } from '../domain/context.js';
import { publishScheduledPost } from '../domain/post-events.js';

export const publishPostJob = defineJob({
  name: 'publishing.post.publish',
  // Jobs queued by versions before the rename still run.
  formerNames: ['publish-scheduled-post'],
  payload: z.object({ postId: z.number().int().positive() }),
  options: { concurrency: 2 },
  // A failure leaves the post scheduled (not yet on the site or in feeds) and is retried with
  // backoff; a run for an outdated date does nothing, so rescheduling never publishes twice.
  handle: (ctx: PublishingContext, payload) => publishScheduledPost(ctx, payload.postId),
});
