// Who a person is to IndieAuth clients (docs/api/identity.md, "IndieAuth"): `me` and `profile`.
import type { z } from 'zod';
import type { profileSchema } from '../shapes.js';
import type { UserDoc } from '../store/index.js';
import { displayName, fallbackAvatarUrl } from './account-json.js';
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

/** What the page behind `{base_url}/{username}/` shows; null when there is no such person. */
export async function profilePage(
  ctx: IdentityContext,
  username: string,
): Promise<{ profile: IndieAuthProfile; bio: string } | null> {
  const user = await ctx.store.userByUsername(username);
  return user ? { profile: indieAuthProfile(user, ctx.config.PUBLIC_URL), bio: user.bio } : null;
}
