// Parameter schemas of the reader's routes in the platform's merged-parameter model (docs/api/conventions.md "Parameters"):
// strings from query or form, JSON values, repeated names as arrays (the last value wins for scalars).
import { z } from 'zod';
import { parseTimestamp } from '@murmur/core';
import { lastValue, zParam } from '@murmur/http';

/** The last of a name repeated in a query or form; a JSON array stays an array (the wrong type). */
const last = lastValue;

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER as never;
}

function toId(v: unknown): number | undefined {
  const s = typeof v === 'string' ? v.trim() : v;
  if (typeof s === 'number') return Number.isSafeInteger(s) && s >= 1 ? s : undefined;
  if (typeof s === 'string' && /^\d{1,16}$/.test(s)) {
    const n = Number(s);
    return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
  }
  return undefined;
}

/**
 * Entry ids: a JSON array, `name[]=`/`name[N]=`/repeated names, or one comma-separated string.
 * More than `max` ids, or anything that is not a positive integer, fails with the given messages.
 */
export const idList = (opts: { max: number; tooMany: string; notInteger: string; allowEmpty?: boolean }) =>
  z.unknown().transform((raw, ctx): number[] => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
    const ids: number[] = [];
    for (const item of items) {
      if (typeof item === 'string' && item.trim() === '' && items.length === 1) continue;
      const id = toId(item);
      if (id === undefined) return fail(ctx, opts.notInteger);
      ids.push(id);
    }
    if (ids.length > opts.max) return fail(ctx, opts.tooMany);
    if (ids.length === 0 && !opts.allowEmpty) return fail(ctx, 'Must list at least one id');
    return ids;
  });

/** `since`: any ISO 8601 form (docs/api/conventions.md "Times") → microseconds. */
export const sinceParam = () =>
  z.unknown().transform((raw, ctx): number => {
    const v = last(raw);
    const parsed = typeof v === 'string' ? parseTimestamp(v.trim()) : null;
    if (!parsed) return fail(ctx, 'Must be an ISO 8601 timestamp, e.g. 2026-11-21T08:30:00.123456Z');
    return Number(parsed.micros);
  });

/** A boolean filter: `true`/`false` (also `1`/`0`); anything else is 400. */
export const boolFilter = () =>
  z.unknown().transform((raw, ctx): boolean => {
    const v = last(raw);
    if (v === true || v === 'true' || v === '1' || v === 1) return true;
    if (v === false || v === 'false' || v === '0' || v === 0) return false;
    return fail(ctx, 'Must be true or false');
  });

/** A flag that is on only for `true`/`1`; other values are ignored (never an error). */
export const lenientFlag = () =>
  z
    .unknown()
    .transform((raw) => {
      const v = last(raw);
      return v === true || v === 'true' || v === '1' || v === 1;
    })
    .optional();

/** `mode=extended` turns extended fields on; other values are ignored. */
export const modeParam = () =>
  z
    .unknown()
    .transform((raw) => last(raw) === 'extended')
    .optional();

/** Raw value, checked by the handler (page/per_page use the platform's parsePage wording). */
export const rawParam = () => z.unknown().optional();

/** Required text, trimmed, 1..max characters; message names what is wrong. */
export const requiredName = (max: number) => zParam.string({ max, min: 1, trim: true });

export const pathId = z.object({ id: zParam.id() });
