// Who a person is to IndieAuth clients (docs/api/identity.md, "IndieAuth"): `me` and `profile`.
import type { z } from 'zod';
import type { profileSchema } from '../shapes.js';
import type { UserDoc } from '../store/index.js';
import { displayName, fallbackAvatarUrl, profileLinksOf } from './account-json.js';
import type { IdentityContext } from './context.js';

export type IndieAuthProfile = z.input<typeof profileSchema>;

/**
 * The user's default site with a trailing slash once publishing has announced it;
 * until then `{base_url}/{username}/`, which identity serves itself.
 */
export function meUrl(user: UserDoc, publicUrl: string): string {
  return user.defaultSite?.url ?? `${publicUrl}/${encodeURIComponent(user.username)}/`;
}

export function indieAuthProfile(user: UserDoc, publicUrl: string): IndieAuthProfile {
  return {
    name: displayName(user),
    url: meUrl(user, publicUrl),
    photo: user.avatar || fallbackAvatarUrl(publicUrl, user.username),
    nickname: user.username,
  };
}

/** What the page behind `{base_url}/{username}/` shows. */
export interface ProfilePage {
  /** The page's own address, `{base_url}/{username}/`: the `url` and `uid` of its h-card. */
  pageUrl: string;
  name: string;
  nickname: string;
  /** The avatar, or the generated one. */
  photo: string;
  bio: string;
  /** The user's other profiles (rel="me"). */
  links: string[];
  /** Their `me` when it is another address (their default site), else null. */
  site: string | null;
}

/** The page behind `{base_url}/{username}/`; null when there is no such person. */
export async function profilePage(ctx: IdentityContext, username: string): Promise<ProfilePage | null> {
  const user = await ctx.store.userByUsername(username);
  if (!user) return null;
  const base = ctx.config.PUBLIC_URL;
  const pageUrl = `${base}/${encodeURIComponent(user.username)}/`;
  const me = meUrl(user, base);
  return {
    pageUrl,
    name: displayName(user),
    nickname: user.username,
    photo: user.avatar || fallbackAvatarUrl(base, user.username),
    bio: user.bio,
    links: profileLinksOf(user),
    site: me === pageUrl ? null : me,
  };
}
