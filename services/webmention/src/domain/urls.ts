// The URL rules of POST /webmention (docs/api/webmention.md, "Receiving"): absolute http(s) with a host,
// at most 2048 characters, compared without fragments. Pure functions. (The source's address literal is
// judged by the fetcher's own policy: receive.ts.)
import { MAX_URL_LENGTH } from '@murmur/fetch';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Parses `value` as an absolute http(s) URL with a host; the reason names `name` when it is not. */
export function checkHttpUrl(name: string, value: string): UrlCheck {
  if (value.length > MAX_URL_LENGTH)
    return { ok: false, reason: `${name} is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: `${name} is not a valid URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `${name} must be an http or https URL` };
  }
  if (url.hostname === '') return { ok: false, reason: `${name} must have a host` };
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `${name} is longer than ${MAX_URL_LENGTH} characters` };
  }
  return { ok: true, url };
}

/** The URL as stored and compared: WHATWG serialisation without the fragment. */
export function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** The URL without scheme and fragment: the key shared by http and https twins. */
export function schemelessKey(url: string): string {
  const u = new URL(url);
  u.hash = '';
  return u.href.slice(u.protocol.length);
}

/** The same URL with the other scheme (http ↔ https), default ports dropped by the parser. */
export function twinOf(url: string): string {
  const u = new URL(url);
  u.protocol = u.protocol === 'https:' ? 'http:' : 'https:';
  return u.href;
}

export function sameUrl(a: string, b: string): boolean {
  try {
    return withoutFragment(new URL(a)) === withoutFragment(new URL(b));
  } catch {
    return false;
  }
}
