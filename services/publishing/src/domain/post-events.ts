// What the rest of Murmur hears about posts: `evt.publishing.post.published / .updated / .deleted` with
// the post's public copy, and the scheduler that publishes scheduled posts when their time comes.
// Event ids carry the post's revision, so a repeated announcement of one change is recognisable.
import { publishing, type EventDef } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/platform';
import type { PostDoc, SiteDoc } from '../store.js';
import type { BusHeaders, PublishingContext } from './context.js';
import { siteUrl } from './sites.js';

type PublicPost = publishing.PublicPost;

export const PUBLISH_SCHEDULED_JOB = 'publish-scheduled-post';

export interface ScheduledPostJob {
  postId: number;
}

export function permalink(ctx: PublishingContext, site: SiteDoc, post: Pick<PostDoc, 'path'>): string {
  return post.path ? `${siteUrl(ctx, site)}${post.path}` : '';
}

export function publicPost(ctx: PublishingContext, site: SiteDoc, post: PostDoc): PublicPost {
  return {
    id: post._id,
    userId: post.userId,
    siteId: post.siteId,
    url: permalink(ctx, site, post),
    title: post.title,
    contentHtml: post.contentHtml,
    contentText: post.contentText,
    publishedAt: formatOffsetTime(post.date),
    photos: post.photos,
    mentions: post.mentions,
    categories: post.categories,
  };
}

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

/** Publishes the event of `post`'s current revision, then records that it was announced. */
export async function announce(
  ctx: PublishingContext,
  verb: PostVerb,
  copy: PublicPost,
  post: Pick<PostDoc, '_id' | 'revision'>,
  headers: BusHeaders,
): Promise<void> {
  await ctx.bus.publish(EVENTS[verb], copy, { headers, id: `post-${post._id}-r${post.revision}-${verb}` });
  await ctx.store.posts.updateOne(
    { _id: post._id, revision: post.revision },
    { $set: { announcedRevision: post.revision } },
  );
}

export async function schedulePublication(ctx: PublishingContext, post: Pick<PostDoc, '_id' | 'date'>) {
  await ctx.jobs.enqueue<ScheduledPostJob>(PUBLISH_SCHEDULED_JOB, { postId: post._id }, { runAt: post.date });
}

/**
 * The scheduler's job: publish the post if it is still scheduled and due. A job for an old date (the post
 * was rescheduled, unscheduled or deleted since) does nothing; the job for the new date does the work.
 * Safe to run twice: only the run that flips the status announces, and a run that finds the flip done but
 * not announced (the bus failed last time) announces it again under the same event id.
 */
export async function publishScheduledPost(ctx: PublishingContext, job: ScheduledPostJob): Promise<void> {
  const now = new Date();
  let post = await ctx.store.posts.findOne({ _id: job.postId });
  if (!post) return;
  if (post.status === 'scheduled') {
    if (post.date.getTime() > now.getTime()) return;
    post = await ctx.store.posts.findOneAndUpdate(
      { _id: post._id, status: 'scheduled', revision: post.revision },
      {
        $set: {
          status: 'published',
          firstPublishedAt: post.firstPublishedAt ?? now,
          modifiedAt: now,
          scheduledRevision: post.revision + 1,
        },
        $inc: { revision: 1 },
      },
    );
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
  const site = await ctx.store.sites.findOne({ _id: post.siteId });
  if (!site) return;
  await announce(ctx, 'published', publicPost(ctx, site, post), post, {});
}
