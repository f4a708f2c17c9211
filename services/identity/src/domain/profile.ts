// Who a person is to IndieAuth clients (identity.md "IndieAuth"): `me` and `profile`.
import type { UserDoc } from '../store.js';
import { displayName, fallbackAvatarUrl } from './account.js';

export interface IndieAuthProfile {
  name: string;
  url: string;
  photo: string;
  nickname: string;
}

/**
 * The user's default site with a trailing slash (identity.md) once publishing has announced it;
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
