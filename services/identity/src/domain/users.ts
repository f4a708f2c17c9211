// Creating accounts and changing profiles. Every creation, whatever the path (operator, Apple),
// announces itself with `evt.identity.user.created` so other services can set up their side.
import { type BusHeaders } from '@murmur/bus';
import { badRequest, unauthorized } from '@murmur/core';
import { DuplicateKeyError } from '@murmur/store';
import type { ProfileFields, UserDoc } from '../store/index.js';
import { ownAccountObject, type OwnAccountJson } from './account-json.js';
import type { IdentityContext } from './context.js';
import { emailKey } from './emails.js';
import { announceUserUpdated, insertAnnouncedUser } from './events.js';

export interface NewUser {
  /** Already normalised and checked (usernames.ts). */
  username: string;
  /** Already checked (emails.ts). */
  email?: string;
  name?: string;
  fullName?: string;
  appleSub?: string;
}

/** The account could not be created because one of its unique keys belongs to another account. */
export class AccountTakenError extends Error {
  constructor(
    readonly field: 'username' | 'email' | 'apple',
    username: string,
  ) {
    super(
      field === 'username'
        ? `username: "${username}" is taken`
        : field === 'email'
          ? 'email: that address is already used by another account'
          : 'That Apple ID is already linked to another account.',
    );
    this.name = 'AccountTakenError';
  }
}

async function takenField(ctx: IdentityContext, user: NewUser): Promise<AccountTakenError['field'] | null> {
  if (await ctx.store.userByUsername(user.username)) return 'username';
  if (user.email !== undefined && (await ctx.store.userByEmail(user.email))) return 'email';
  if (user.appleSub !== undefined && (await ctx.store.userByAppleSub(user.appleSub))) return 'apple';
  return null;
}

export async function createUser(
  ctx: IdentityContext,
  input: NewUser,
  headers: BusHeaders,
): Promise<UserDoc> {
  const taken = await takenField(ctx, input);
  if (taken) throw new AccountTakenError(taken, input.username);
  const now = ctx.clock.now();
  const user: UserDoc = {
    _id: await ctx.store.nextUserId(),
    username: input.username,
    usernameKey: input.username.toLowerCase(),
    name: input.name ?? '',
    fullName: input.fullName ?? '',
    bio: '',
    avatar: '',
    plan: '',
    plans: [],
    createdAt: now,
    updatedAt: now,
  };
  if (input.email !== undefined) {
    user.email = input.email;
    user.emailKey = emailKey(input.email);
  }
  if (input.appleSub !== undefined) user.appleSub = input.appleSub;
  try {
    await insertAnnouncedUser(ctx, user, headers);
  } catch (err) {
    // Lost a race with another creation between the check and the insert.
    if (err instanceof DuplicateKeyError)
      throw new AccountTakenError((await takenField(ctx, input)) ?? 'username', input.username);
    throw err;
  }
  ctx.logger.info({ userId: user._id }, 'account created');
  return user;
}

export async function updateProfile(
  ctx: IdentityContext,
  userId: number,
  fields: ProfileFields,
  headers: BusHeaders,
): Promise<UserDoc | null> {
  const user = await ctx.store.updateProfile(userId, fields, ctx.clock.now());
  if (user) await announceUserUpdated(ctx, user, headers);
  return user;
}

/** The account object of a signed-in user (the token's owner is gone → 401, as for a bad token). */
export async function currentAccount(ctx: IdentityContext, userId: number): Promise<OwnAccountJson> {
  const user = await ctx.store.userById(userId);
  if (!user) throw unauthorized();
  return ownAccountObject(user, ctx.config.PUBLIC_URL, await ctx.usingAi());
}

/** What a person may change of their own profile (PATCH /account/me); the plan stays the operator's. */
export type OwnProfileFields = Pick<ProfileFields, 'name' | 'fullName' | 'bio' | 'avatar' | 'links'>;

/**
 * A person's edit of their own profile: stored and announced (`evt.identity.user.updated`) like an
 * operator's edit, so services keeping a copy of users refresh it. Returns the account as its owner sees it.
 */
export async function editOwnProfile(
  ctx: IdentityContext,
  userId: number,
  fields: OwnProfileFields,
  headers: BusHeaders,
): Promise<OwnAccountJson> {
  if (Object.keys(fields).length === 0) {
    throw badRequest('Nothing to change: send name, full_name, bio, avatar or links.');
  }
  const user = await updateProfile(ctx, userId, fields, headers);
  if (!user) throw unauthorized();
  return ownAccountObject(user, ctx.config.PUBLIC_URL, await ctx.usingAi());
}
