// Parameter schemas shared by identity's routes, in the platform's merged-parameter model: values are
// strings from the query or a form, or JSON values; a repeated name arrives as an array (last wins).
import { z } from 'zod';
import { checkProfileLinks } from '../domain/profile-links.js';
import { lastValue } from '@murmur/http';

/** The last of a name repeated in a query or form; a JSON array stays an array, refused as no string. */
const last = lastValue;

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER as never;
}

function text(v: unknown, max: number, ctx: z.RefinementCtx): string {
  if (typeof v !== 'string') return fail(ctx, 'must be a string');
  if (/\p{Cc}/u.test(v.replace(/[\t\r\n]/g, ''))) return fail(ctx, 'must not contain control characters');
  const s = v.trim();
  if (s.length > max) return fail(ctx, `must be at most ${max} characters`);
  return s;
}

/** Trimmed text; absent or empty → undefined (clients send `app_name=` for "none"). */
export const optionalText = (max: number) =>
  z
    .unknown()
    .transform((raw, ctx): string | undefined => {
      const v = last(raw);
      if (v === undefined || v === null || v === '') return undefined;
      const s = text(v, max, ctx);
      return s === '' ? undefined : s;
    })
    // zod 4 refuses an undefined result for a key unless the schema says it is optional.
    .optional();

/** Trimmed, non-empty text. */
export const requiredText = (max: number) =>
  z.unknown().transform((raw, ctx): string => {
    const v = last(raw);
    if (v === undefined || v === null || v === '') return fail(ctx, 'is required');
    const s = text(v, max, ctx);
    return s === '' ? fail(ctx, 'is required') : s;
  });

/** For PATCH: absent → undefined (unchanged), empty string → '' (cleared). */
export const patchText = (max: number) =>
  z
    .unknown()
    .transform((raw, ctx): string => text(last(raw), max, ctx))
    .optional();

/** For PATCH: an avatar URL (absolute http(s)), empty to go back to the generated one, absent → unchanged. */
export const avatarUrl = () =>
  patchText(2048).refine(
    (v) => v === undefined || v === '' || (/^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v)),
    { message: 'must be an absolute http(s) URL, or empty to use the generated avatar' },
  );

/**
 * For PATCH: the profile links (domain/profile-links.ts) — a JSON list, or repeated form fields; an
 * empty list or one empty field clears them; absent → unchanged. The error names the bad value.
 */
export const profileLinks = () =>
  z
    .unknown()
    .transform((raw, ctx): string[] => {
      const checked = checkProfileLinks(raw);
      return checked.ok ? checked.links : fail(ctx, checked.message);
    })
    .optional();

/**
 * One parameter as the client sent it: the last value of a repeated name, JSON numbers and booleans
 * as text, untrimmed (IndieAuth's `state` must come back unchanged); absent or empty → undefined.
 */
function rawValue(raw: unknown): string | undefined {
  const v = last(raw);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A parameter exactly as sent (see rawValue); absent or empty → undefined. */
export const oauthParam = () =>
  z
    .unknown()
    .transform((raw) => rawValue(raw))
    .optional();

/** An OAuth parameter that must be present (400 `invalid_request` naming it otherwise). */
export const requiredOauthParam = () =>
  z.unknown().transform((raw, ctx): string => rawValue(raw) ?? fail(ctx, 'is required'));

/** The names among `names` that arrived more than once (as an array) in a parameter record. */
export function repeatedParams(raw: unknown, names: readonly string[]): string[] {
  if (raw === null || typeof raw !== 'object') return [];
  const record = raw as Record<string, unknown>;
  return names.filter((name) => Array.isArray(record[name]) && (record[name] as unknown[]).length > 1);
}
