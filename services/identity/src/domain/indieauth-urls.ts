// The URL rules of IndieAuth (docs/indieauth.md, docs/api/identity.md "GET /indieauth/auth"): what a client_id may look like,
// what a redirect_uri may look like, and when a redirect_uri needs no published list. Pure functions.

export const MAX_URL_LENGTH = 2048;

export type Parsed = { ok: true; url: URL } | { ok: false; reason: string };

/** Schemes a redirect may never use, even when a client publishes them: they run code or read files. */
const FORBIDDEN_REDIRECT_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

const IPV4_LITERAL = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The path of a URL string as written, before the URL parser resolves `.` and `..` away. */
function rawPath(raw: string): string {
  const afterScheme = raw.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '');
  return afterScheme.split(/[?#]/, 1)[0] ?? '';
}

function hasDotSegment(raw: string): boolean {
  return rawPath(raw)
    .split(/[/\\]/)
    .some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * A client identifier: http(s), a path, no fragment, no userinfo, no dot segments; the host a domain
 * name, or exactly 127.0.0.1 / [::1] (IndieAuth "Client Identifier"). A port is allowed.
 */
export function parseClientId(raw: string | undefined): Parsed {
  if (raw === undefined || raw === '') return { ok: false, reason: 'The client_id parameter is missing.' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: 'The client_id is too long.' };
  const url = parse(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) {
    return { ok: false, reason: 'The client_id must be an http or https URL.' };
  }
  if (raw.includes('#')) return { ok: false, reason: 'The client_id must not contain a fragment.' };
  if (url.username || url.password) {
    return { ok: false, reason: 'The client_id must not contain a user name or password.' };
  }
  if (hasDotSegment(raw)) return { ok: false, reason: 'The client_id must not contain . or .. segments.' };
  const host = url.hostname;
  const isIp = IPV4_LITERAL.test(host) || host.startsWith('[');
  if (isIp && host !== '127.0.0.1' && host !== '[::1]') {
    return { ok: false, reason: 'The client_id host must be a domain name (or 127.0.0.1 / [::1]).' };
  }
  return { ok: true, url };
}

/**
 * A loopback client runs on the person's own machine: its page is never fetched (IndieAuth "Client
 * Information Discovery"). `localhost` is loopback by name (RFC 6761), so it counts too.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === '127.0.0.1' || host === '[::1]' || host === 'localhost' || host.endsWith('.localhost');
}

/** An absolute URL without fragment or userinfo, in a scheme that cannot run code. */
export function parseRedirectUri(raw: string | undefined): Parsed {
  if (raw === undefined || raw === '') return { ok: false, reason: 'The redirect_uri parameter is missing.' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: 'The redirect_uri is too long.' };
  const url = parse(raw);
  if (!url) return { ok: false, reason: 'The redirect_uri must be an absolute URL.' };
  if (FORBIDDEN_REDIRECT_SCHEMES.has(url.protocol)) {
    return { ok: false, reason: `The redirect_uri may not use the ${url.protocol} scheme.` };
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !url.hostname) {
    return { ok: false, reason: 'The redirect_uri must name a host.' };
  }
  if (raw.includes('#')) return { ok: false, reason: 'The redirect_uri must not contain a fragment.' };
  if (url.username || url.password) {
    return { ok: false, reason: 'The redirect_uri must not contain a user name or password.' };
  }
  return { ok: true, url };
}

/** Same scheme, host and port: such a redirect needs no published list. */
export function sameOrigin(a: URL, b: URL): boolean {
  const webScheme = a.protocol === 'https:' || a.protocol === 'http:';
  return webScheme && a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port;
}

/** Whether `redirect` is one of the published redirect URLs: exact string, or the same URL once parsed. */
export function isPublished(redirect: string, published: readonly string[]): boolean {
  const href = parse(redirect)?.href;
  return published.some((p) => p === redirect || (href !== undefined && parse(p)?.href === href));
}

/** Two client_id / redirect_uri strings name the same URL (host case, default port, empty path). */
export function sameUrl(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [parse(a), parse(b)];
  return x !== null && y !== null && x.href === y.href;
}

/** `url` with the parameters appended (its own query kept), for redirects back to a client. */
export function withParams(url: string, params: Record<string, string | undefined>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.append(name, value);
  }
  return target.href;
}
