// Users as feeds sees them: copies from identity's events, completed on demand by asking identity
// (a user created before this service first started has no copy yet), and the cards feeds show.
import { identity, type PublicUser } from '@murmur/contracts';
import { notFound } from '@murmur/core';
import type { SiteDoc, UserDoc } from '../store/index.js';
import type { FeedsContext } from './context.js';
import { isRemoteHandle, NO_SUCH_USER, resolveRemote } from './remote.js';

export { NO_SUCH_USER };

export interface Profile {
  userId: number;
  username: string;
  name: string;
  avatar: string;
  /** The user's `me`: default site URL (ending in `/`) or `{PUBLIC_URL}/{username}/`. */
  url: string;
}

function userDoc(
  user: PublicUser,
  rev: number,
): Omit<UserDoc, 'graphChangedAt' | 'graphVersion' | 'queueChangedAt'> {
  return {
    _id: user.id,
    username: user.username,
    usernameKey: user.username.toLowerCase(),
    name: user.name,
    avatar: user.avatar,
    rev,
  };
}

/** Applies a user event's copy (revision-checked). */
export async function rememberUser(ctx: FeedsContext, user: PublicUser, rev: number): Promise<void> {
  if (await ctx.store.applyUser(userDoc(user, rev))) ctx.profiles.rev = Math.max(ctx.profiles.rev, rev);
}

async function askIdentity(
  ctx: FeedsContext,
  query: { id: number } | { username: string },
): Promise<UserDoc | null> {
  const { user } = await ctx.bus.request(identity.usersGet, query);
  if (!user) return null;
  // Revision 0: any event about this user is newer than what identity answered just now.
  await ctx.store.applyUser(userDoc(user, 0));
  return ctx.store.userById(user.id);
}

export async function findUserByUsername(ctx: FeedsContext, username: string): Promise<UserDoc | null> {
  // `name@host`: an account of another server, known here or looked up by the federation service.
  if (isRemoteHandle(username)) {
    return (await ctx.store.userByUsername(username.replace(/^@/, ''))) ?? resolveRemote(ctx, username);
  }
  if (username.length === 0 || username.length > 64) return null;
  return (await ctx.store.userByUsername(username)) ?? askIdentity(ctx, { username });
}

export async function findUserById(ctx: FeedsContext, id: number): Promise<UserDoc | null> {
  return (await ctx.store.userById(id)) ?? askIdentity(ctx, { id });
}

export async function userByUsernameOr404(ctx: FeedsContext, username: string): Promise<UserDoc> {
  const user = await findUserByUsername(ctx, username);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}

export function profileUrl(
  ctx: FeedsContext,
  user: { username: string; url?: string },
  site: SiteDoc | undefined,
): string {
  if (user.url) return user.url;
  if (site) return site.url.endsWith('/') ? site.url : `${site.url}/`;
  return `${ctx.config.PUBLIC_URL}/${encodeURIComponent(user.username)}/`;
}

/** Profiles of these users (unknown ids are left out). */
export async function profilesOf(ctx: FeedsContext, ids: number[]): Promise<Map<number, Profile>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, Profile>();
  if (unique.length === 0) return out;
  const [users, sites] = await Promise.all([ctx.store.usersByIds(unique), ctx.store.defaultSitesOf(unique)]);
  const siteOf = new Map(sites.map((s) => [s.userId, s]));
  for (const user of users) {
    out.set(user._id, {
      userId: user._id,
      username: user.username,
      name: user.name,
      avatar: user.avatar,
      url: profileUrl(ctx, user, siteOf.get(user._id)),
    });
  }
  return out;
}

export async function profileOf(ctx: FeedsContext, user: UserDoc): Promise<Profile> {
  const profile = (await profilesOf(ctx, [user._id])).get(user._id);
  if (!profile) throw notFound(NO_SUCH_USER);
  return profile;
}
