// Local users as federation sees them: copies from identity's events, completed on demand by asking
// identity (a user created before this service first started has no copy yet).
import { identity, type PublicUser } from '@murmur/contracts';
import { notFound } from '@murmur/core';
import type { UserDoc } from '../store/index.js';
import type { FederationContext } from './context.js';

export const NO_SUCH_USER = 'No such user.';

function userDoc(user: PublicUser, rev: number): UserDoc {
  return {
    _id: user.id,
    username: user.username,
    usernameKey: user.username.toLowerCase(),
    name: user.name || user.fullName,
    avatar: user.avatar,
    bio: user.bio,
    createdAt: user.createdAt,
    rev,
  };
}

/** Applies a user event's copy (revision-checked by the event's time). */
export async function rememberUser(
  ctx: FederationContext,
  user: PublicUser,
  occurredAt: string,
): Promise<void> {
  await ctx.store.applyUser(userDoc(user, Date.parse(occurredAt) || 1));
}

/** What a remote server shows of our actor: a change to any of these is worth an Update(Person). */
function actorFacts(doc: Pick<UserDoc, 'username' | 'name' | 'avatar' | 'bio'>): string {
  return JSON.stringify([doc.username, doc.name, doc.avatar, doc.bio]);
}

/**
 * identity's user-updated event: the copy is applied. Resolves to it when the profile a remote server
 * shows (name, bio, avatar) changed — the caller (bus.ts) then sends the Person to the user's followers
 * as Update(Person), as Mastodon does on a profile edit — else null. A redelivered or older event
 * changes no copy and sends nothing; the activity id is made of the revision, so a retried handler
 * queues the same deliveries again.
 */
export async function applyUserUpdate(
  ctx: FederationContext,
  user: PublicUser,
  occurredAt: string,
): Promise<UserDoc | null> {
  const before = await ctx.store.userById(user.id);
  const doc = userDoc(user, Date.parse(occurredAt) || 1);
  const applied = await ctx.store.applyUser(doc);
  if (!applied || (before && actorFacts(before) === actorFacts(doc))) return null;
  return doc;
}

async function askIdentity(
  ctx: FederationContext,
  query: { id: number } | { username: string },
): Promise<UserDoc | null> {
  const { user } = await ctx.bus.request(identity.usersGet, query);
  if (!user) return null;
  // Revision 0: any event about this user is newer than what identity answered just now.
  await ctx.store.applyUser(userDoc(user, 0));
  return ctx.store.userById(user.id);
}

export async function findUserByUsername(ctx: FederationContext, username: string): Promise<UserDoc | null> {
  if (username.length === 0 || username.length > 64) return null;
  return (await ctx.store.userByUsername(username)) ?? askIdentity(ctx, { username });
}

export async function findUserById(ctx: FederationContext, id: number): Promise<UserDoc | null> {
  return (await ctx.store.userById(id)) ?? askIdentity(ctx, { id });
}

export async function userByUsernameOr404(ctx: FederationContext, username: string): Promise<UserDoc> {
  const user = await findUserByUsername(ctx, username);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}
