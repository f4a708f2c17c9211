// Copies of Murmur's own public posts: their permalinks are targets we accept, and their links are
// where we send webmentions to (docs/api/webmention.md, "Sending").
import type { EventEnvelope, publishing } from '@murmur/contracts';
import type { WebmentionContext } from './context.js';
import { outgoingLinks } from './links.js';
import { queueSends } from './send.js';
import { revisionOf } from './targets.js';
import { schemelessKey, withoutFragment } from './urls.js';

type PostVerb = 'published' | 'updated' | 'deleted';

export async function applyPostEvent(
  ctx: WebmentionContext,
  verb: PostVerb,
  event: EventEnvelope<publishing.PublicPost>,
): Promise<void> {
  const post = event.data;
  const permalink = withoutFragment(new URL(post.url));
  // A deleted post's event carries its last public copy: its links are the receivers to tell.
  const links = (await outgoingLinks(post.contentHtml, permalink)).filter((l) => l !== permalink);
  const previous = await ctx.store.applyPost({
    _id: post.id,
    userId: post.userId,
    url: permalink,
    urlKey: schemelessKey(permalink),
    visible: verb !== 'deleted',
    links,
    rev: revisionOf(event.occurredAt, verb),
  });
  if (previous === false) return; // an older event than the copy we have
  // Every link the post has now, and every link it had: a removed link's receiver re-verifies and
  // finds it gone; a deleted post's receivers find the 410.
  const targets = [...new Set([...links, ...(previous?.links ?? [])])];
  await queueSends(ctx, post.id, permalink, targets);
}
