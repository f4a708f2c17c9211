// The account object of /account/verify (identity.md) and the user shapes other services and the
// operator see. Display rules live here so every view agrees.
import type { PublicUser } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/platform';
import type { UserDoc } from '../store.js';

export interface AccountObject {
  token?: string;
  name: string;
  username: string;
  avatar: string;
  bio: string;
  default_site: string;
  full_name: string;
  fallback_avatar_url: string;
  has_site: boolean;
  plan: string;
  plans: string[];
  is_fullaccess: boolean;
  is_premium: boolean;
  is_using_ai: boolean;
  /** Reader apps refuse to start without it (identity.md, "What real clients do"). */
  has_inkwell: true;
}

export const DEFAULT_PLAN = 'free';

export function fallbackAvatarUrl(publicUrl: string, username: string): string {
  return `${publicUrl}/account/avatar/${encodeURIComponent(username)}.svg`;
}

export function displayName(user: UserDoc): string {
  return user.name || user.username;
}

export function accountObject(
  user: UserDoc,
  publicUrl: string,
  usingAi = false,
): Omit<AccountObject, 'token'> {
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
    has_inkwell: true,
  };
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
    createdAt: formatOffsetTime(user.createdAt),
  };
}

/** What the operator sees: stored values as they are (no fallbacks), never a secret. */
export function adminUserView(user: UserDoc) {
  return {
    id: user._id,
    username: user.username,
    email: user.email ?? '',
    name: user.name,
    full_name: user.fullName,
    bio: user.bio,
    avatar: user.avatar,
    plan: user.plan || DEFAULT_PLAN,
    plans: user.plans.length > 0 ? user.plans : [DEFAULT_PLAN],
    apple_linked: user.appleSub !== undefined,
    created_at: formatOffsetTime(user.createdAt),
  };
}
export type AdminUserView = ReturnType<typeof adminUserView>;
