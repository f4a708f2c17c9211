// The two events of a mention, recorded through the outbox right after the write that made them true.
// Their ids are made of (wm-id, rev), so recording the same change again (a job run twice, a crash
// between the write and the outbox) records nothing new, and `isNew` is a fact of that revision.
import { webmention } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/core';
import { eventIdFor } from '@murmur/jobs';
import type { MentionDoc } from '../store/index.js';
import type { WebmentionContext } from './context.js';

export async function recordVerified(ctx: WebmentionContext, doc: MentionDoc): Promise<void> {
  if (doc.wmId === undefined || doc.receivedAt === undefined || doc.published === undefined) return;
  await ctx.outbox.publish(
    webmention.mentionVerified,
    {
      id: doc.wmId,
      source: doc.source,
      target: doc.target,
      targetUserId: doc.targetUserId,
      type: doc.type ?? 'mention',
      author: doc.author ?? {},
      contentHtml: doc.contentHtml ?? '',
      contentText: doc.contentText ?? '',
      published: doc.publishedGiven ? formatOffsetTime(doc.published) : null,
      received: formatOffsetTime(doc.receivedAt),
      isNew: doc.rev === doc.shownAtRev,
    },
    { id: eventIdFor('webmention', 'mention', doc.wmId, doc.rev, 'verified') },
  );
}

export async function recordDeleted(ctx: WebmentionContext, doc: MentionDoc): Promise<void> {
  if (doc.wmId === undefined) return;
  await ctx.outbox.publish(
    webmention.mentionDeleted,
    { id: doc.wmId, source: doc.source, target: doc.target, targetUserId: doc.targetUserId },
    { id: eventIdFor('webmention', 'mention', doc.wmId, doc.rev, 'deleted') },
  );
}
