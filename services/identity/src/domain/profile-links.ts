// A user's profile links: their other profiles, shown as rel="me" on their profile page and sites
// (docs/api/identity.md, "Profile links"). Pure rules; both the account and the operator API use them.

export const MAX_PROFILE_LINKS = 10;
export const MAX_PROFILE_LINK_LENGTH = 2048;

export type ProfileLinksCheck = { ok: true; links: string[] } | { ok: false; message: string };

const NOT_A_LIST = 'must be a list of absolute http(s) URLs';

/** The value as it may appear in an error message: quoted, and cut short when long. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

function linkProblem(link: string): string | null {
  if (link.length > MAX_PROFILE_LINK_LENGTH) {
    return `${quoted(link)} is longer than ${MAX_PROFILE_LINK_LENGTH} characters`;
  }
  const notUrl = `${quoted(link)} is not an absolute http(s) URL`;
  // The parser would quietly repair `https:example.com`, a space or a control character: refuse them.
  if (!/^https?:\/\/[^/?#\s]/i.test(link) || /[\s\p{Cc}]/u.test(link)) return notUrl;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return notUrl;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') return notUrl;
  if (url.username !== '' || url.password !== '') {
    return `${quoted(link)} must not contain a user name or password`;
  }
  return null;
}

/**
 * The links a user asked for, checked: each trimmed, blank entries ignored (a form's empty rows), the
 * same URL twice kept once (first place), at most ten. A single string counts as a list of one.
 */
export function checkProfileLinks(raw: unknown): ProfileLinksCheck {
  const values = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    return { ok: false, message: NOT_A_LIST };
  }
  const links: string[] = [];
  const seen = new Set<string>();
  for (const value of values as string[]) {
    const link = value.trim();
    if (link === '') continue;
    const problem = linkProblem(link);
    if (problem) return { ok: false, message: problem };
    const key = new URL(link).href;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push(link);
  }
  if (links.length > MAX_PROFILE_LINKS) {
    return { ok: false, message: `at most ${MAX_PROFILE_LINKS} links (got ${links.length})` };
  }
  return { ok: true, links };
}
