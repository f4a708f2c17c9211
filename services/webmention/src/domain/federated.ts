// Replies, likes and boosts of our posts from the fediverse (the federation service's events, libs/
// contracts federation.ts) are shown where webmentions are: the federation service verified their HTTP
// Signatures, so they are stored as verified mentions without fetching anything — one record per
// (remote page, post), with the same moderation (blocked hosts, mentions the owner removed).
import type { EventEnvelope, federation } from '@murmur/contracts';
import type { WebmentionContext } from './context.js';
import { loadPair, remove, upsert } from './verify.js';

const TYPES = { reply: 'reply', like: 'like', repost: 'repost' } as const;

export async function applyFederatedInteraction(
  ctx: WebmentionContext,
  verb: 'received' | 'removed',
  event: EventEnvelope<federation.Interaction>,
): Promise<void> {
  const i = event.data;
  const doc = await loadPair(ctx, i.source, i.target);
  if (verb === 'removed') return remove(ctx, doc, 'deleted');
  if (await ctx.store.isBlocked(doc.sourceHost, doc.targetUserId))
    return remove(ctx, doc, 'blocked', 'source host is blocked');
  const published = i.published === null ? undefined : Date.parse(i.published);
  await upsert(ctx, doc, {
    type: TYPES[i.type],
    url: i.source,
    author: i.author,
    contentHtml: i.contentHtml,
    contentText: i.contentText,
    publishedMs: published !== undefined && Number.isFinite(published) ? published : undefined,
  });
}
