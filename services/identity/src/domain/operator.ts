// The operator's account work (/admin/users…): create, list, show and edit accounts, issue and list
// their app tokens. Every answer is a presenter's shape; unknown ids are 404.
import { type BusHeaders } from '@murmur/bus';
import { badRequest, conflict, notFound } from '@murmur/core';
import type { ProfileFields, UserDoc } from '../store/index.js';
import { adminUserView, createdUserView, type AdminUserJson, type CreatedUserJson } from './account-json.js';
import type { IdentityContext } from './context.js';
import { emailKey, parseEmail } from './emails.js';
import { reannounceUserCreated } from './events.js';
import { tokenView, type TokenInfoJson } from './token-json.js';
import { issueAppToken, type IssuedToken } from './tokens.js';
import { normaliseUsername, usernameProblem } from './usernames.js';
import { AccountTakenError, createUser, updateProfile } from './users.js';

const NO_SUCH_USER = 'No such user.';

async function existingUser(ctx: IdentityContext, id: number): Promise<UserDoc> {
  const user = await ctx.store.userById(id);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}

/** A new account and its first app token (labelled `admin`), shown this once. */
export async function createAccount(
  ctx: IdentityContext,
  input: { username: string; email: string; name?: string | undefined },
  headers: BusHeaders,
): Promise<CreatedUserJson> {
  const username = normaliseUsername(input.username);
  const problem = usernameProblem(username);
  if (problem) throw badRequest(problem, 'username');
  const email = parseEmail(input.email);
  if (email === null)
    throw badRequest('email: must be a valid email address (one @, at most 254 characters)', 'email');
  let user: UserDoc;
  try {
    user = await createUser(ctx, { username, email, name: input.name }, headers);
  } catch (err) {
    if (!(err instanceof AccountTakenError)) throw err;
    const earlier = await sameAccountCreatedBefore(ctx, { username, email, name: input.name ?? '' });
    if (!earlier) throw conflict(err.message);
    // A client retrying a creation whose answer it never got (a timeout, a 5xx): it gets the account it
    // asked for, with a token of its own, and the announcement is recorded again if it was lost.
    user = earlier;
    await reannounceUserCreated(ctx, user, headers);
  }
  const issued = await issueAppToken(ctx, user._id, 'admin');
  return createdUserView(user, issued.token);
}

/** The account a creation with exactly these details made earlier, or null (then the name is really taken). */
async function sameAccountCreatedBefore(
  ctx: IdentityContext,
  wanted: { username: string; email: string; name: string },
): Promise<UserDoc | null> {
  const user = await ctx.store.userByUsername(wanted.username);
  if (!user || user.email === undefined) return null;
  const same =
    user.username === wanted.username &&
    emailKey(user.email) === emailKey(wanted.email) &&
    user.name === wanted.name;
  return same ? user : null;
}

export async function listAccounts(
  ctx: IdentityContext,
  limit: number,
  offset: number,
): Promise<AdminUserJson[]> {
  return (await ctx.store.listUsers(limit, offset)).map(adminUserView);
}

export async function showAccount(ctx: IdentityContext, id: number): Promise<AdminUserJson> {
  return adminUserView(await existingUser(ctx, id));
}

export async function editAccount(
  ctx: IdentityContext,
  id: number,
  fields: ProfileFields,
  headers: BusHeaders,
): Promise<AdminUserJson> {
  if (Object.keys(fields).length === 0) {
    throw badRequest('Nothing to change: send name, full_name, bio, avatar, links, plan or plans.');
  }
  const user = await updateProfile(ctx, id, fields, headers);
  if (!user) throw notFound(NO_SUCH_USER);
  return adminUserView(user);
}

export async function issueAccountToken(
  ctx: IdentityContext,
  id: number,
  label: string,
): Promise<IssuedToken> {
  const user = await existingUser(ctx, id);
  return issueAppToken(ctx, user._id, label);
}

export async function accountTokens(ctx: IdentityContext, id: number): Promise<TokenInfoJson[]> {
  const user = await existingUser(ctx, id);
  return (await ctx.store.appTokensOfUser(user._id)).map(tokenView);
}
