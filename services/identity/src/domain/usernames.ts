// Usernames (docs/api/identity.md, "Usernames"). They become URL path segments (`/feeds/{username}.json`,
// `{base_url}/{username}/`), so words that already name a path are reserved.
const USERNAME_PATTERN = /^[a-z][a-z0-9_]{0,29}$/;

export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'v2',
  'photos',
  'highlights',
  'recap',
  'readlater',
  'account',
  'indieauth',
  'users',
  'posts',
  'media',
  'imported',
  'microsub',
  'webmention',
  'xmlrpc',
]);

/** Usernames are unique case-insensitively, so the lowercase form is the one we keep. */
export function normaliseUsername(input: string): string {
  return input.trim().toLowerCase();
}

/** Why a (normalised) username cannot be used, as a 400 message naming the parameter; null when it can. */
export function usernameProblem(username: string): string | null {
  if (!USERNAME_PATTERN.test(username)) {
    return 'username: must be 1 to 30 characters of a-z, 0-9 or _, starting with a letter';
  }
  if (RESERVED_USERNAMES.has(username)) return `username: "${username}" is reserved`;
  return null;
}
