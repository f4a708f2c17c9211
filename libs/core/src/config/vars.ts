// Builders for environment variables. Environment values are always strings, so each builder parses
// the text itself and says, in words an operator understands, what it expected. The message is shown
// by ConfigError as `NAME: <message> (got "value")`.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER as never;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A host name, an IP address or a CIDR (as used by allow-lists). */
export function isHostOrCidr(entry: string): boolean {
  const e = entry.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (e.includes('/')) return ipaddr.isValidCIDR(e);
  return ipaddr.isValid(e) || /^[a-z0-9._-]+$/.test(e);
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export const envVar = {
  /** Decimal integer within [min, max]. */
  int: ({ min, max }: { min: number; max: number }) =>
    z.string().transform((text, ctx) => {
      const s = text.trim();
      const n = Number(s);
      if (!/^-?\d+$/.test(s) || n < min || n > max) fail(ctx, `must be an integer from ${min} to ${max}`);
      return n;
    }),

  port: () => envVar.int({ min: 1, max: 65535 }),

  /** `1`/`0`/`true`/`false` (any case). */
  bool: () =>
    z.string().transform((text, ctx) => {
      const s = text.trim().toLowerCase();
      if (s === '1' || s === 'true') return true;
      if (s === '0' || s === 'false') return false;
      return fail(ctx, 'must be 1, 0, true or false');
    }),

  /** Comma-separated list; blanks dropped. `check` validates each entry. */
  list: (check?: { test: (entry: string) => boolean; message: string }) =>
    z.string().transform((text, ctx) => {
      const items = splitList(text);
      const bad = check ? items.find((i) => !check.test(i)) : undefined;
      if (bad !== undefined && check) fail(ctx, `${check.message} ("${bad}" is not)`);
      return items;
    }),

  /** Absolute http(s) URL; the result has no trailing slash. */
  httpUrl: () =>
    z.string().transform((text, ctx) => {
      let url: URL;
      try {
        url = new URL(text.trim());
      } catch {
        return fail(ctx, 'must be an absolute http(s) URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return fail(ctx, 'must be an absolute http(s) URL');
      if (url.search || url.hash || url.username || url.password) {
        return fail(ctx, 'must be an absolute http(s) URL without credentials, query or fragment');
      }
      return url.href.replace(/\/+$/, '');
    }),

  /** A URL whose scheme is one of `prefixes` (e.g. `file:`, `mongodb://`). */
  urlWithScheme: (prefixes: readonly string[]) =>
    z.string().transform((text, ctx) => {
      const s = text.trim();
      if (!prefixes.some((p) => s.startsWith(p))) fail(ctx, `must start with ${prefixes.join(', ')}`);
      return s;
    }),

  logLevel: () => z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),

  /** Non-empty text. */
  string: () => z.string().trim().min(1, { error: 'must not be empty' }),
};

/**
 * Fastify `trustProxy`: `true`/`false`, or a list of proxy addresses, CIDRs and the names
 * `loopback`, `linklocal`, `uniquelocal` understood by proxy-addr.
 */
export const trustProxyVar = () =>
  z.string().transform((text, ctx): boolean | string[] => {
    const s = text.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
    const items = splitList(s);
    const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
    const bad = items.find(
      (i) => !named.has(i) && !(i.includes('/') ? ipaddr.isValidCIDR(i) : ipaddr.isValid(i)),
    );
    if (items.length === 0 || bad !== undefined) {
      return fail(
        ctx,
        'must be true, false, or a comma list of IP addresses, CIDRs, loopback, linklocal, uniquelocal',
      );
    }
    return items;
  });

/**
 * MURMUR_ADMIN_TOKEN: the shared secret of the operator APIs (identity's /admin, publishing's
 * /admin/sites). At least 16 characters. Services add `.optional()`: the APIs answer 403 while unset.
 */
export const adminTokenVar = () =>
  z.string().trim().min(16, { error: 'must be at least 16 characters (use a long random string)' });
