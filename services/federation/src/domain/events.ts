// The federation service's events, recorded through the outbox right after the write that made them
// true. Their ids are made of (entity, revision), so recording the same change again (an inbox
// redelivery, a crash between the write and the outbox) records nothing new.
import { federation } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/core';
import { eventIdFor } from '@murmur/jobs';
import type { ActorDoc, InteractionDoc, PostDoc, RemotePostDoc, UserDoc } from '../store/index.js';
import type { FederationContext } from './context.js';
import { accountOf } from './remote.js';

export async function recordFollower(
  ctx: FederationContext,
  verb: 'added' | 'removed',
  user: Pick<UserDoc, '_id' | 'username'>,
  actor: ActorDoc,
  at: Date,
): Promise<void> {
  await ctx.outbox.publish(
    verb === 'added' ? federation.followerAdded : federation.followerRemoved,
    { userId: user._id, username: user.username, follower: accountOf(actor), at: formatOffsetTime(at) },
    { id: eventIdFor('federation', 'follower', `${user._id}-${actor._id}`, at.getTime(), verb) },
  );
}

export async function recordRemotePost(
  ctx: FederationContext,
  verb: 'received' | 'updated' | 'deleted',
  doc: RemotePostDoc,
  actor: ActorDoc,
): Promise<void> {
  const event =
    verb === 'received'
      ? federation.postReceived
      : verb === 'updated'
        ? federation.postUpdated
        : federation.postDeleted;
  // A boost names the boosted post's author too (kept when it was boosted; read again if gone).
  const boostedBy = doc.repostOf ? await ctx.store.actorsByIds([doc.repostOf.author]) : [];
  const repostOf =
    doc.repostOf && boostedBy[0]
      ? { objectId: doc.repostOf.objectId, url: doc.repostOf.url, author: accountOf(boostedBy[0]) }
      : undefined;
  await ctx.outbox.publish(
    event,
    {
      id: doc._id,
      author: accountOf(actor),
      objectId: doc.objectId,
      url: doc.url,
      title: doc.title,
      contentHtml: doc.contentHtml,
      contentText: doc.contentText,
      publishedAt: formatOffsetTime(doc.publishedAt),
      photos: doc.photos,
      mentions: doc.mentions,
      inReplyTo: doc.inReplyTo,
      ...(repostOf ? { repostOf } : {}),
      revision: doc.rev,
    },
    { id: eventIdFor('federation', 'post', doc._id, doc.rev, verb) },
  );
}

export async function recordInteraction(
  ctx: FederationContext,
  verb: 'received' | 'removed',
  doc: InteractionDoc,
  actor: ActorDoc,
  post: Pick<PostDoc, 'url'>,
): Promise<void> {
  await ctx.outbox.publish(
    verb === 'received' ? federation.interactionReceived : federation.interactionRemoved,
    {
      id: doc._id,
      type: doc.type,
      source: doc.source,
      target: post.url,
      targetUserId: doc.targetUserId,
      author: {
        name: actor.name || actor.handle,
        url: actor.url,
        ...(actor.icon ? { photo: actor.icon } : {}),
      },
      contentHtml: doc.contentHtml,
      contentText: doc.contentText,
      published: doc.published ? formatOffsetTime(doc.published) : null,
      received: formatOffsetTime(doc.received),
      revision: doc.rev,
    },
    { id: eventIdFor('federation', 'interaction', doc._id, doc.rev, verb) },
  );
}
