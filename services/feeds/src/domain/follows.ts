// The follow graph: one edge per (follower, followee) pair, held by a unique index. A new edge is
// announced (evt.feeds.follow.created) once; a repeated follow or an unfollow of nobody is a no-op.
// The event is staged in the outbox before the edge is written and committed after, so a bus outage
// or a crash in between never loses it (docs/platform.md, "outbox"); the verifier decides a staged
// event a crash left behind: published only if the edge exists with this event's creation time (a
// follow that found the edge already there announces nothing).
import { feeds } from '@murmur/contracts';
import { type Headers } from '@murmur/bus';
import { badRequest, formatOffsetTime, notFound } from '@murmur/core';
import type { Followee, UserDoc } from '../store/index.js';
import type { FeedsContext } from './context.js';
import { findUserById, NO_SUCH_USER, profilesOf, userByUsernameOr404, type Profile } from './users.js';
import { resolveRemote } from './remote.js';

async function caller(ctx: FeedsContext, userId: number): Promise<UserDoc> {
  const user = await findUserById(ctx, userId);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}

/** The channel name that stands for none: follows made anywhere but Microsub are in it. */
export const DEFAULT_CHANNEL = 'default';

/**
 * Follows `target`. `channel` is the Microsub channel the follow goes into (`default`: none): a follow
 * already made moves there. Without it a new follow is in no channel and one already made stays.
 * Only a new edge is announced.
 */
export async function follow(
  ctx: FeedsContext,
  followerId: number,
  target: UserDoc,
  headers?: Headers,
  channel?: string,
): Promise<void> {
  if (target._id === followerId) throw badRequest('username: you cannot follow yourself', 'username');
  const follower = await caller(ctx, followerId);
  const now = ctx.clock.now();
  const staged = await ctx.outbox.stage(
    feeds.followCreated,
    {
      followerId,
      followerUsername: follower.username,
      followeeId: target._id,
      followeeUsername: target.username,
      createdAt: formatOffsetTime(now),
    },
    { id: followEventId(followerId, target._id, now), ...(headers ? { headers } : {}) },
  );
  const stored = channel === DEFAULT_CHANNEL ? undefined : channel;
  let created: boolean;
  try {
    created = await ctx.store.follow(followerId, target._id, now, stored);
  } catch (err) {
    await staged.discard();
    throw err;
  }
  if (!created) {
    await staged.discard();
    if (channel !== undefined && (await ctx.store.moveFollow(followerId, target._id, stored))) {
      await ctx.store.markGraphChanged(followerId, ctx.clock.now());
    }
    return;
  }
  await ctx.store.markGraphChanged(followerId, now);
  await staged.commit();
}

/** One id per edge made: the edge's creation time, to the millisecond, tells two follows apart. */
function followEventId(followerId: number, followeeId: number, at: Date): string {
  return `follow-${followerId}-${followeeId}-${at.getTime()}`;
}

/** A staged follow event is true when its edge exists and was made by the attempt that staged it. */
export function registerFollowVerifier(ctx: FeedsContext): void {
  ctx.outbox.verify(feeds.followCreated, async (event) => {
    const { followerId, followeeId } = event.data;
    const at = await ctx.store.followedAt(followerId, followeeId);
    return at !== null && event.id === followEventId(followerId, followeeId, at);
  });
}

export async function unfollow(ctx: FeedsContext, followerId: number, target: UserDoc): Promise<void> {
  if (await ctx.store.unfollow(followerId, target._id)) {
    const now = ctx.clock.now();
    await ctx.store.markGraphChanged(followerId, now);
    // Announced after the edge is gone (an unfollow repeated finds none and announces nothing): the
    // federation service sends a remote account the Undo of the follow.
    const follower = await findUserById(ctx, followerId);
    await ctx.outbox.publish(
      feeds.followDeleted,
      {
        followerId,
        followerUsername: follower?.username ?? '',
        followeeId: target._id,
        followeeUsername: target.username,
        deletedAt: formatOffsetTime(now),
      },
      { id: `unfollow-${followerId}-${target._id}-${now.getTime()}` },
    );
  }
}

export async function followByUsername(
  ctx: FeedsContext,
  followerId: number,
  username: string,
  headers?: Headers,
): Promise<void> {
  await follow(ctx, followerId, await userByUsernameOr404(ctx, username), headers);
}

export async function unfollowByUsername(
  ctx: FeedsContext,
  followerId: number,
  username: string,
): Promise<void> {
  await unfollow(ctx, followerId, await userByUsernameOr404(ctx, username));
}

/** Whom `user` follows and in which channel (cached per process, checked against the user's graph version). */
export async function followeesWithChannels(ctx: FeedsContext, user: UserDoc): Promise<Followee[]> {
  const version = user.graphVersion ?? 0;
  const cached = ctx.following.get(user._id, version);
  if (cached) return cached;
  const followees = await ctx.store.followees(user._id);
  ctx.following.set(user._id, version, followees);
  return followees;
}

/** Whom `user` follows. */
export async function followeesOf(ctx: FeedsContext, user: UserDoc): Promise<number[]> {
  return (await followeesWithChannels(ctx, user)).map((f) => f.id);
}

/** Ends every follow of `userId` made into the Microsub channel `channel` (being deleted); how many. */
export async function unfollowChannel(ctx: FeedsContext, userId: number, channel: string): Promise<number> {
  if (channel === DEFAULT_CHANNEL) {
    throw badRequest('channel: the follows in no channel are not unfollowed as a whole', 'channel');
  }
  const ended = await ctx.store.unfollowChannel(userId, channel);
  if (ended > 0) await ctx.store.markGraphChanged(userId, ctx.clock.now());
  return ended;
}

export interface FollowingEntry extends Profile {
  isFollowing: boolean;
  isYou: boolean;
}

/** Everyone `username` follows, sorted by username, with flags relative to `viewerId`. */
export async function followingOf(
  ctx: FeedsContext,
  username: string,
  viewerId: number,
): Promise<FollowingEntry[]> {
  const user = await userByUsernameOr404(ctx, username);
  const ids = await followeesOf(ctx, user);
  const profiles = await profilesOf(ctx, ids);
  const viewer = await findUserById(ctx, viewerId);
  const viewerFollows = new Set(viewer ? await followeesOf(ctx, viewer) : []);
  return [...profiles.values()]
    .sort((a, b) => a.username.localeCompare(b.username))
    .map((p) => ({ ...p, isFollowing: viewerFollows.has(p.userId), isYou: p.userId === viewerId }));
}

/** A follow target named by username, or by a profile URL (`me`) — for the Microsub adapter. */
export async function resolveTarget(
  ctx: FeedsContext,
  target: { username: string } | { url: string },
): Promise<UserDoc> {
  if ('username' in target) return userByUsernameOr404(ctx, target.username);
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw badRequest('url: must be an absolute URL', 'url');
  }
  const href = url.href.endsWith('/') ? url.href : `${url.href}/`;
  const site = await ctx.store.siteByUrl(href);
  if (site) {
    const user = await findUserById(ctx, site.userId);
    if (user) return user;
  }
  // `{PUBLIC_URL}/{username}/` is every user's profile URL when they have no site of their own.
  const base = `${ctx.config.PUBLIC_URL}/`;
  if (href.startsWith(base)) {
    const rest = href.slice(base.length).replace(/\/$/, '');
    if (/^[^/]+$/.test(rest)) return userByUsernameOr404(ctx, decodeURIComponent(rest));
    throw notFound(NO_SUCH_USER);
  }
  // Not ours: an account of another server (an ActivityPub actor), or nobody.
  return resolveRemote(ctx, url.href);
}
