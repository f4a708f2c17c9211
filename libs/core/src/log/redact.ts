// What must never reach a log line (docs/security.md, tokens and secrets): credentials in headers, secret parameters in
// URLs and logged objects, and the token segment of private queue feeds.

/** Parameter names whose values are secrets wherever they appear. */
export const REDACTED_PARAMS: readonly string[] = [
  'token',
  'access_token',
  'identity_token',
  'code',
  'code_verifier',
  'refresh_token',
  'csrf',
  'password',
  'bits',
  // Push device tokens address a user's phone (docs/security.md: private data).
  'device_token',
];

/** Header names (lower case) that carry credentials. */
export const REDACTED_HEADERS: readonly string[] = [
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
];

export const REDACTED = '***';

const paramSet = new Set(REDACTED_PARAMS);
const keySet = new Set([...REDACTED_PARAMS, ...REDACTED_HEADERS]);

// `/feeds/{username}/bookmarks/{token}.json` and `/feeds/{username}/readlater/{token}.json`.
const QUEUE_FEED = /(\/feeds\/[^/?#\s]+\/(?:bookmarks|readlater)\/)[^/?#\s]+?(\.json)?(?=[?#\s]|$)/g;

// `?name=value` / `&name=value` / `;name=value` anywhere in a text (a URL, a path, a message quoting a URL).
// A name stops at every separator, `;` included: a run of `;` with no `=` after it would otherwise be
// rescanned from each `;` (quadratic in a request URL's length).
const QUERY_PAIR = /([?&;])([^=&;#\s?]+)=([^&#\s;]*)/g;

/** No secret name is longer: a longer name is not one, whatever its case or encoding. */
const LONGEST_SECRET_NAME = Math.max(...REDACTED_PARAMS.map((name) => name.length));

function paramBase(rawName: string): string {
  let name = rawName;
  // Only an encoded name needs decoding (decodeURIComponent copies the whole name).
  if (name.includes('%') || name.includes('+')) {
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // keep the raw name
    }
  }
  // `code[]`, `token[0]` hide the same secret as `code`, `token`.
  const base = withoutIndexSuffix(name);
  // Lower-casing a name of hundreds of KiB (a hostile URL) costs far more than its length says (V8
  // leaves its fast path for long strings), and such a name is no secret's anyway.
  return base.length > LONGEST_SECRET_NAME ? '' : base.toLowerCase();
}

/**
 * `name` without a final `[…]` (from the first `[` after the last inner `]`), as /\[[^\]]*\]$/ would
 * strip it, in one pass: that expression rescans to the end from every `[` of a name like `[[[[…`.
 */
function withoutIndexSuffix(name: string): string {
  if (!name.endsWith(']')) return name;
  const open = name.indexOf('[', name.lastIndexOf(']', name.length - 2) + 1);
  return open === -1 || open === name.length - 1 ? name : name.slice(0, open);
}

/**
 * Masks secret query parameters and the queue-feed token in a URL, a path or any text quoting one,
 * keeping the rest readable: `/x?token=abc&page=2` → `/x?token=***&page=2`.
 */
export function redactUrl(text: string): string {
  // Copied only where a secret is masked: most logged URLs carry none, and a copy of a long one (a
  // hostile request URL) costs far more than reading it.
  let out = text;
  let parts: string[] | undefined;
  let last = 0;
  QUERY_PAIR.lastIndex = 0;
  for (let m = QUERY_PAIR.exec(text); m !== null; m = QUERY_PAIR.exec(text)) {
    const [pair, sep, name] = m as unknown as [string, string, string];
    if (!paramSet.has(paramBase(name))) continue;
    (parts ??= []).push(text.slice(last, m.index), `${sep}${name}=${REDACTED}`);
    last = m.index + pair.length;
  }
  if (parts) {
    parts.push(text.slice(last));
    out = parts.join('');
  }
  if (out.includes('/feeds/')) {
    out = out.replace(
      QUEUE_FEED,
      (_m, head: string, ext: string | undefined) => `${head}${REDACTED}${ext ?? ''}`,
    );
  }
  return out;
}

const URLISH = /[?&;]|\/feeds\//;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of `value` with secret keys masked and URL-looking strings passed through redactUrl.
 * Only plain objects and arrays are walked (never class instances such as requests or errors, which
 * have serializers), to a bounded depth; unchanged parts are shared, not copied.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return (URLISH.test(value) ? redactUrl(value) : value) as T;
  if (depth > 6) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v: unknown) => {
      const r = redactSecrets(v, depth + 1);
      if (r !== v) changed = true;
      return r;
    });
    return (changed ? out : value) as T;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(value)) {
    const v = value[k];
    const r = keySet.has(k.toLowerCase()) && v !== undefined ? REDACTED : redactSecrets(v, depth + 1);
    if (r !== v) {
      out ??= { ...value };
      out[k] = r;
    }
  }
  return (out ?? value) as T;
}

/**
 * A logged object (or a child logger's bindings) as it may be written: redactSecrets's copy, with a
 * `headers` that is not a plain object — a class instance carrying header fields, which the walk leaves
 * alone — walked as a plain copy of its own fields.
 */
export function redactLogged<T extends Record<string, unknown>>(object: T): T {
  const headers = object.headers;
  if (headers !== null && typeof headers === 'object' && !isPlainObject(headers) && !Array.isArray(headers))
    return redactSecrets({ ...object, headers: { ...headers } });
  return redactSecrets(object);
}
