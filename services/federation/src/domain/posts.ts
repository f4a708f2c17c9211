// Copies of local public posts (publishing's events): the notes and outboxes we serve, and — once
// stored — the Create, Update or Delete their author's followers are sent (domain/outgoing.ts).
import type { EventEnvelope, publishing } from '@murmur/contracts';
import type { PostDoc } from '../store/index.js';
import type { FederationContext } from './context.js';
import { distributePost } from './outgoing.js';

export type PostVerb = 'published' | 'updated' | 'deleted';

/** A post's revision: publishing's own when the event carries it, else the event's time. */
function revisionOf(event: EventEnvelope<publishing.PublicPost>): number {
  return event.data.revision ?? (Date.parse(event.occurredAt) || 1);
}

export async function applyPostEvent(
  ctx: FederationContext,
  verb: PostVerb,
  event: EventEnvelope<publishing.PublicPost>,
): Promise<void> {
  const post = event.data;
  const previous = await ctx.store.postById(post.id);
  const doc: PostDoc = {
    _id: post.id,
    userId: post.userId,
    url: post.url,
    title: post.title,
    contentHtml: post.contentHtml,
    contentText: post.contentText,
    publishedAt: new Date(Date.parse(post.publishedAt)),
    ...(verb === 'updated'
      ? { editedAt: new Date(Date.parse(event.occurredAt)) }
      : previous?.editedAt
        ? { editedAt: previous.editedAt }
        : {}),
    photos: post.photos,
    mentions: post.mentions,
    visible: verb !== 'deleted',
    rev: revisionOf(event),
  };
  if (!(await ctx.store.applyPost(doc))) return; // an older event than the copy we have
  // An update of a post the followers never got (published before federation ran) is its Create.
  const kind = verb === 'deleted' ? 'delete' : verb === 'updated' && previous?.visible ? 'update' : 'create';
  if (verb === 'deleted' && !previous?.visible) return;
  await distributePost(ctx, doc, kind);
}
