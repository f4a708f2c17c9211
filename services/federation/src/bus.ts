// Where the federation service meets other services: identity's users and publishing's posts (what
// we serve and send), feeds' follows of remote accounts (what we ask for), and the account lookups
// feeds asks us for. Its own events go through the outbox (domain/events.ts), never from here.
import { federation, feeds, identity, publishing } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { FederationContext } from './domain/context.js';
import { sendProfileUpdate } from './domain/outgoing.js';
import { applyPostEvent } from './domain/posts.js';
import { accountOf, resolveAccount } from './domain/remote.js';
import { applyUserUpdate, rememberUser } from './domain/users.js';
import { followRemote, unfollowRemote } from './domain/following.js';

export const GROUPS = {
  userCreated: 'federation-user-created',
  userUpdated: 'federation-user-updated',
  postPublished: 'federation-post-published',
  postUpdated: 'federation-post-updated',
  postDeleted: 'federation-post-deleted',
  followCreated: 'federation-follow-created',
  followDeleted: 'federation-follow-deleted',
} as const;

export async function wireBus(ctx: FederationContext): Promise<Subscription[]> {
  const { bus } = ctx;
  return Promise.all([
    bus.subscribe(identity.userCreated, { durable: GROUPS.userCreated }, (e) =>
      rememberUser(ctx, e.data.user, e.occurredAt),
    ),
    bus.subscribe(identity.userUpdated, { durable: GROUPS.userUpdated }, async (e) => {
      const changed = await applyUserUpdate(ctx, e.data.user, e.occurredAt);
      if (changed) await sendProfileUpdate(ctx, changed);
    }),
    bus.subscribe(publishing.postPublished, { durable: GROUPS.postPublished }, (e) =>
      applyPostEvent(ctx, 'published', e),
    ),
    bus.subscribe(publishing.postUpdated, { durable: GROUPS.postUpdated }, (e) =>
      applyPostEvent(ctx, 'updated', e),
    ),
    bus.subscribe(publishing.postDeleted, { durable: GROUPS.postDeleted }, (e) =>
      applyPostEvent(ctx, 'deleted', e),
    ),
    bus.subscribe(feeds.followCreated, { durable: GROUPS.followCreated }, (e) => followRemote(ctx, e.data)),
    bus.subscribe(feeds.followDeleted, { durable: GROUPS.followDeleted }, (e) => unfollowRemote(ctx, e.data)),
    bus.handle(federation.accountResolve, async (query) => ({
      account: accountOf(await resolveAccount(ctx, query.target)),
    })),
  ]);
}
