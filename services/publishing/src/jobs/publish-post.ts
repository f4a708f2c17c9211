// Publishes a scheduled post when its time comes.
import { handleJob } from '@murmur/jobs';
import type { PublishingContext } from '../domain/context.js';
import { publishPostJob } from '../domain/jobs.js';
import { publishScheduledPost } from '../domain/post-events.js';

// A failure leaves the post scheduled (not yet on the site or in feeds) and is retried with
// backoff; a run for an outdated date does nothing, so rescheduling never publishes twice.
export const publishPostJobDefinition = handleJob(publishPostJob, (ctx: PublishingContext, payload) =>
  publishScheduledPost(ctx, payload.postId),
);
