// Local users following accounts of other servers. The follow itself is feeds' (POST /users/follow,
// Microsub `follow`): feeds keeps the edge and announces it; here it becomes a Follow sent to the
// account's inbox, and an unfollow an Undo(Follow). The account's Accept marks it accepted.
import { createHash } from 'node:crypto';
import { federation } from '@murmur/contracts';
import type { FederationContext } from './context.js';
import { sendActivity } from './outgoing.js';
import { findUserById } from './users.js';
import { AS_CONTEXT } from './ap-json.js';

function isRemote(id: number): boolean {
  return id >= federation.REMOTE_ID_BASE;
}

export async function followRemote(
  ctx: FederationContext,
  edge: { followerId: number; followeeId: number; createdAt: string },
): Promise<void> {
  if (!isRemote(edge.followeeId) || !ctx.config.FEDERATION_ENABLED) return;
  const [actor, user] = await Promise.all([
    ctx.store.actorById(edge.followeeId),
    findUserById(ctx, edge.followerId),
  ]);
  if (!actor || actor.deleted || !user) return;
  const stamp = createHash('sha256').update(`${edge.createdAt}`).digest('hex').slice(0, 12);
  const following = await ctx.store.addFollowing({
    _id: `${user._id} ${actor._id}`,
    userId: user._id,
    actor: actor._id,
    followId: `${ctx.urls.actor(user.username)}#follows/${actor._id}/${stamp}`,
    state: 'pending',
    createdAt: ctx.clock.now(),
  });
  await sendActivity(
    ctx,
    user._id,
    {
      '@context': AS_CONTEXT,
      id: following.followId,
      type: 'Follow',
      actor: ctx.urls.actor(user.username),
      object: actor.actorId,
    },
    [actor],
    { sharedInbox: false },
  );
}

export async function unfollowRemote(
  ctx: FederationContext,
  edge: { followerId: number; followeeId: number },
): Promise<void> {
  if (!isRemote(edge.followeeId)) return;
  const following = await ctx.store.followingOf(edge.followerId, edge.followeeId);
  if (!following) return;
  const [actor, user] = await Promise.all([
    ctx.store.actorById(edge.followeeId),
    findUserById(ctx, edge.followerId),
  ]);
  if (actor && user && ctx.config.FEDERATION_ENABLED) {
    const me = ctx.urls.actor(user.username);
    await sendActivity(
      ctx,
      user._id,
      {
        '@context': AS_CONTEXT,
        id: `${following.followId}/undo`,
        type: 'Undo',
        actor: me,
        object: { id: following.followId, type: 'Follow', actor: me, object: actor.actorId },
      },
      [actor],
      { sharedInbox: false },
    );
  }
  await ctx.store.removeFollowing(following._id);
}
