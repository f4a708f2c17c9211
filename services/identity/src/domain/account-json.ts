// Presenters of accounts: the account object of /account/verify and /account/me, the operator's view
// of a user, and the public user other services see on the bus. Display rules live here so every
// view agrees; the shapes are the route schemas' (shapes.ts) and the contract's.
import type { z } from 'zod';
import type { PublicUser } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/core';
import type {
  accountSchema,
  accountWithoutTokenSchema,
  adminUserSchema,
  createdUserSchema,
  ownAccountSchema,
} from '../shapes.js';
import type { UserDoc } from '../store/index.js';

export type AccountJson = z.input<typeof accountWithoutTokenSchema>;
export type AccountWithTokenJson = z.input<typeof accountSchema>;
export type OwnAccountJson = z.input<typeof ownAccountSchema>;
export type AdminUserJson = z.input<typeof adminUserSchema>;
export type CreatedUserJson = z.input<typeof createdUserSchema>;

export const DEFAULT_PLAN = 'free';

export function fallbackAvatarUrl(publicUrl: string, username: string): string {
  return `${publicUrl}/account/avatar/${encodeURIComponent(username)}.svg`;
}

export function displayName(user: UserDoc): string {
  return user.name || user.username;
}

/** The user's profile links (rel="me"), in their order; none on accounts that never set any. */
export function profileLinksOf(user: UserDoc): string[] {
  return user.links ?? [];
}

export function accountObject(user: UserDoc, publicUrl: string, usingAi = false): AccountJson {
  const fallback = fallbackAvatarUrl(publicUrl, user.username);
  return {
    name: displayName(user),
    username: user.username,
    avatar: user.avatar || fallback,
    bio: user.bio,
    // Sites belong to publishing; identity keeps a copy of the default one from its events.
    default_site: user.defaultSite?.host ?? '',
    full_name: user.fullName,
    fallback_avatar_url: fallback,
    has_site: user.defaultSite !== undefined,
    plan: user.plan || DEFAULT_PLAN,
    plans: user.plans.length > 0 ? user.plans : [DEFAULT_PLAN],
    is_fullaccess: true,
    is_premium: false,
    // The reader says whether its recaps use the operator's summariser (there is no per-user switch).
    is_using_ai: usingAi,
    // Reader apps refuse to start without it (docs/api/identity.md, "What real clients send").
    has_inkwell: true,
  };
}

/** The account as its owner sees it (/account/me): the account object and the profile links. */
export function ownAccountObject(user: UserDoc, publicUrl: string, usingAi = false): OwnAccountJson {
  return { ...accountObject(user, publicUrl, usingAi), links: profileLinksOf(user) };
}

export function publicUser(user: UserDoc, publicUrl: string): PublicUser {
  return {
    id: user._id,
    username: user.username,
    email: user.email ?? '',
    name: displayName(user),
    fullName: user.fullName,
    avatar: user.avatar || fallbackAvatarUrl(publicUrl, user.username),
    bio: user.bio,
    links: profileLinksOf(user),
    createdAt: formatOffsetTime(user.createdAt),
  };
}

/** What the operator sees: stored values as they are (no fallbacks), never a secret. */
export function adminUserView(user: UserDoc): AdminUserJson {
  return {
    id: user._id,
    username: user.username,
    email: user.email ?? '',
    name: user.name,
    full_name: user.fullName,
    bio: user.bio,
    avatar: user.avatar,
    links: profileLinksOf(user),
    plan: user.plan || DEFAULT_PLAN,
    plans: user.plans.length > 0 ? user.plans : [DEFAULT_PLAN],
    apple_linked: user.appleSub !== undefined,
    created_at: formatOffsetTime(user.createdAt),
  };
}

/** The operator's answer to creating an account: the account and its first app token, shown once. */
export function createdUserView(user: UserDoc, token: string): CreatedUserJson {
  return { id: user._id, username: user.username, email: user.email ?? '', name: user.name, token };
}
