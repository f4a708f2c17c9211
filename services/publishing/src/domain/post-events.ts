// What the rest of Murmur hears about posts: `evt.publishing.post.published / .updated / .deleted` with
// the post's public copy, and the scheduler that publishes scheduled posts when their time comes.
// Events go through the outbox (recorded in the store, relayed until the bus acknowledges them), with ids
// from the post's revision, so a repeated announcement of one change is recorded and delivered once.
import { publishing, type EventDef } from '@murmur/contracts';
import { enqueueJob, eventIdFor } from '@murmur/jobs';
import type { PostDoc } from '../store.js';
import type { BusHeaders, PublishingContext } from './context.js';
import { publishPostJob } from './jobs.js';
import { publicPost } from './post-json.js';

type PublicPost = publishing.PublicPost;

export type PostVerb = 'published' | 'updated' | 'deleted';

const EVENTS: Record<PostVerb, EventDef<PublicPost>> = {
  published: publishing.postPublished,
  updated: publishing.postUpdated,
  deleted: publishing.postDeleted,
};

/** Which event a change from `before` to `after` status means, if any (drafts and schedules are private). */
export function verbOf(wasPublic: boolean, isPublic: boolean): PostVerb | null {
  if (wasPublic && isPublic) return 'updated';
  if (wasPublic) return 'deleted';
  if (isPublic) return 'published';
  return null;
}

/** The id of the event announcing `revision` of a post: the same change always gets the same id. */
export function postEventId(postId: number, revision: number, verb: PostVerb): string {
  return eventIdFor('publishing', 'post', postId, revision, verb);
}

/** Records the event of `post`'s current revision in the outbox, then that it was announced. */
export async function announce(
  ctx: PublishingContext,
  verb: PostVerb,
  copy: PublicPost,
  post: Pick<PostDoc, '_id' | 'revision'>,
  headers: BusHeaders,
): Promise<void> {
  await ctx.outbox.publish(
    EVENTS[verb],
    { ...copy, revision: post.revision },
    { headers, id: postEventId(post._id, post.revision, verb) },
  );
  await ctx.store.markPostAnnounced(post._id, post.revision);
}

export async function schedulePublication(ctx: PublishingContext, post: Pick<PostDoc, '_id' | 'date'>) {
  await enqueueJob(ctx.jobs, publishPostJob, { postId: post._id }, { runAt: post.date });
}

/**
 * The scheduler's job: publish the post if it is still scheduled and due. A job for an old date (the post
 * was rescheduled, unscheduled or deleted since) does nothing; the job for the new date does the work.
 * Safe to run twice: only the run that flips the status announces, and a run that finds the flip done but
 * not announced (the store failed after the flip) records the event again under the same id.
 */
export async function publishScheduledPost(ctx: PublishingContext, postId: number): Promise<void> {
  const now = ctx.clock.now();
  let post = await ctx.store.postById(postId);
  if (!post) return;
  if (post.status === 'scheduled') {
    if (post.date.getTime() > now.getTime()) return;
    post = await ctx.store.publishIfScheduled(post, now);
    if (!post) return;
    ctx.logger.info({ postId: post._id }, 'scheduled post published');
  } else if (
    post.status !== 'published' ||
    post.scheduledRevision !== post.revision ||
    post.announcedRevision === post.revision
  ) {
    // Nothing of this job's left to do: not its flip, or already announced.
    return;
  }
  const site = await ctx.store.siteById(post.siteId);
  if (!site) return;
  await announce(ctx, 'published', publicPost(ctx, site, post), post, {});
}
