// Where the push service meets other services: the events that notify users. Each is consumed by a
// durable group (one replica handles each event) and fanned out idempotently by event id.
import { federation, feeds, publishing, webmention } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { PushContext } from './domain/context.js';
import { notifyOfFollow, notifyOfPost, notifyOfRemoteFollower, notifyOfWebmention } from './domain/fanout.js';

export const GROUPS = {
  postPublished: 'push-post-published',
  mentionVerified: 'push-mention-verified',
  followCreated: 'push-follow-created',
  remoteFollowerAdded: 'push-remote-follower-added',
} as const;

export async function wireBus(ctx: PushContext): Promise<Subscription[]> {
  const { bus } = ctx;
  return Promise.all([
    bus.subscribe(publishing.postPublished, { durable: GROUPS.postPublished }, (e) => notifyOfPost(ctx, e)),
    bus.subscribe(webmention.mentionVerified, { durable: GROUPS.mentionVerified }, (e) =>
      notifyOfWebmention(ctx, e),
    ),
    bus.subscribe(feeds.followCreated, { durable: GROUPS.followCreated }, (e) => notifyOfFollow(ctx, e)),
    // An account of another server (ActivityPub) followed a local user: the same notification.
    bus.subscribe(federation.followerAdded, { durable: GROUPS.remoteFollowerAdded }, (e) =>
      notifyOfRemoteFollower(ctx, e),
    ),
  ]);
}
