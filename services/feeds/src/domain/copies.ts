// Applying other services' events to feeds' copies. Every handler is idempotent and revision-checked:
// a redelivered event changes nothing, an older one never overwrites a newer copy.
import type { EventEnvelope, publishing, webmention } from '@murmur/contracts';
import type { FeedsContext } from './context.js';
import type { PostHead } from './post-index.js';
import { revisionOf, type EventKind } from './revisions.js';
import type { PostDoc } from '../store/index.js';

type PostVerb = 'published' | 'updated' | 'deleted';

function postDoc(post: publishing.PublicPost, verb: PostVerb, rev: number): PostDoc {
  return {
    _id: post.id,
    userId: post.userId,
    siteId: post.siteId,
    url: post.url,
    title: post.title,
    contentHtml: post.contentHtml,
    contentText: post.contentText,
    publishedAt: new Date(Date.parse(post.publishedAt)),
    photos: post.photos,
    mentionIds: [...new Set(post.mentions.map((m) => m.userId))],
    categories: post.categories,
    visible: verb !== 'deleted',
    rev,
  };
}

export function headOf(
  doc: Pick<
    PostDoc,
    '_id' | 'userId' | 'publishedAt' | 'mentionIds' | 'photos' | 'visible' | 'rev' | 'remote'
  >,
): PostHead {
  return {
    id: doc._id,
    authorId: doc.userId,
    publishedAtMs: doc.publishedAt.getTime(),
    rev: doc.rev,
    visible: doc.visible,
    mentionIds: doc.mentionIds,
    hasPhotos: doc.photos.length > 0 && !doc.remote,
  };
}

/** The durable consumer: stores the copy, then updates this process's index. */
export async function applyPostEvent(
  ctx: FeedsContext,
  verb: PostVerb,
  event: EventEnvelope<publishing.PublicPost>,
): Promise<void> {
  const doc = postDoc(event.data, verb, revisionOf(event.occurredAt, verb));
  await ctx.store.applyPost(doc);
  ctx.pending.stored(doc);
  ctx.index.apply(headOf(doc));
}

/**
 * Every replica's listener: the index, and the document until the store has it (pending-posts.ts) —
 * the store is written by the durable consumer, here a moment later or in another replica.
 */
export function indexPostEvent(
  ctx: FeedsContext,
  verb: PostVerb,
  event: EventEnvelope<publishing.PublicPost>,
): void {
  const doc = postDoc(event.data, verb, revisionOf(event.occurredAt, verb));
  ctx.pending.remember(doc);
  ctx.index.apply(headOf(doc));
}

export async function applySiteEvent(
  ctx: FeedsContext,
  kind: EventKind,
  event: EventEnvelope<{ site: publishing.Site }>,
): Promise<void> {
  const { site } = event.data;
  const rev = revisionOf(event.occurredAt, kind);
  const applied = await ctx.store.applySite({
    _id: site.id,
    userId: site.userId,
    username: site.username,
    url: site.url,
    isDefault: site.isDefault,
    title: site.title ?? site.username,
    description: site.description ?? '',
    rev,
  });
  if (applied) ctx.profiles.rev = Math.max(ctx.profiles.rev, rev);
}

export async function applyMentionVerified(
  ctx: FeedsContext,
  event: EventEnvelope<webmention.VerifiedMention>,
): Promise<void> {
  const m = event.data;
  const received = Date.parse(m.received);
  await ctx.store.applyWebmention({
    _id: m.id,
    targetUserId: m.targetUserId,
    source: m.source,
    target: m.target,
    type: m.type,
    author: m.author,
    contentHtml: m.contentHtml,
    contentText: m.contentText,
    published: m.published,
    received: new Date(Number.isFinite(received) ? received : Date.parse(event.occurredAt)),
    visible: true,
    rev: revisionOf(event.occurredAt, 'verified'),
  });
}

export async function applyMentionDeleted(
  ctx: FeedsContext,
  event: EventEnvelope<{ id: number; source: string; target: string; targetUserId: number | null }>,
): Promise<void> {
  const m = event.data;
  const rev = revisionOf(event.occurredAt, 'deleted');
  const existing = await ctx.store.webmentionById(m.id);
  await ctx.store.applyWebmention({
    _id: m.id,
    targetUserId: m.targetUserId ?? existing?.targetUserId ?? null,
    source: m.source,
    target: m.target,
    type: existing?.type ?? 'mention',
    author: existing?.author ?? {},
    contentHtml: '',
    contentText: '',
    published: null,
    received: existing?.received ?? new Date(Date.parse(event.occurredAt)),
    visible: false,
    rev,
  });
}

/** Builds the index from the stored copies (at start). */
export async function loadIndex(ctx: FeedsContext): Promise<void> {
  ctx.index.load((await ctx.store.allPostHeads()).map(headOf));
  ctx.profiles.rev = Math.max(await ctx.store.newestRev('users'), await ctx.store.newestRev('sites'));
}
