// Request parameters (docs/api/conventions.md, Parameters): one merged record from query < form body < JSON body, and zod
// helpers that accept every spelling real clients send (strings from query/form, typed JSON values,
// repeated keys, `name[]` and `name[0]` arrays). Only the query string and form bodies repeat a name:
// the arrays they make are remembered (`isRepeatedParam`), so a scalar parameter takes the last of
// those and refuses a JSON array (`{"title": ["a"]}` is a 400 naming `title`, not the title "a").
import { z } from 'zod';
import { badRequest } from '@murmur/core';

/** Merged parameters: a null-prototype record; repeated and bracketed names hold arrays. */
export type ParamRecord = Record<string, unknown>;

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const INDEXED = /^(.+)\[(\d{1,6})\]$/;
const APPENDED = /^(.+)\[\]$/;

/** Parameters one source (query string, form body, top level of a JSON object) may carry. */
export const MAX_PARAMS = 1000;

export const tooManyParams = () => badRequest(`Too many parameters (more than ${MAX_PARAMS}).`);

/** The arrays paramsFromPairs made of a repeated name: the only arrays a scalar parameter unwraps. */
const REPEATED = new WeakSet<unknown[]>();

/** Whether `value` is a name repeated in a query string or form body (not an array a JSON body sent). */
export function isRepeatedParam(value: unknown): value is string[] {
  return Array.isArray(value) && REPEATED.has(value);
}

/**
 * The value of a scalar parameter: the last of a name repeated in a query string or form body
 * (docs/api/conventions.md: the last one wins), else the value as it came — a JSON array stays an array,
 * for the caller to refuse as the wrong type.
 */
export function lastValue(value: unknown): unknown {
  return isRepeatedParam(value) ? value[value.length - 1] : value;
}

/**
 * Folds `name=…` pairs into a record. A name given once is a string; a repeated name, `name[]` and
 * `name[N]` become arrays (plain and `[]` values in order of appearance, then indexed ones by index).
 * Linear in the number of pairs: values are pushed, never copied.
 */
export function paramsFromPairs(pairs: Iterable<[string, string]>): ParamRecord {
  const plain = new Map<string, string[]>();
  const forced = new Set<string>();
  const indexed = new Map<string, Array<[number, string]>>();
  for (const [rawName, value] of pairs) {
    let name = rawName;
    const idx = rawName.endsWith(']') ? INDEXED.exec(rawName) : null;
    const app = idx === null && rawName.endsWith('[]') ? APPENDED.exec(rawName) : null;
    if (idx) name = idx[1]!;
    else if (app) name = app[1]!;
    if (FORBIDDEN_KEYS.has(name)) continue;
    if (idx) {
      const list = indexed.get(name);
      if (list) list.push([Number(idx[2]), value]);
      else indexed.set(name, [[Number(idx[2]), value]]);
      continue;
    }
    if (app) forced.add(name);
    const list = plain.get(name);
    if (list) list.push(value);
    else plain.set(name, [value]);
  }
  const out: ParamRecord = Object.create(null) as ParamRecord;
  for (const [name, values] of plain) {
    const byIndex = indexed.get(name);
    if (byIndex) continue;
    if (values.length === 1 && !forced.has(name)) out[name] = values[0];
    else {
      REPEATED.add(values);
      out[name] = values;
    }
  }
  for (const [name, list] of indexed) {
    list.sort((a, b) => a[0] - b[0]);
    const values = plain.get(name) ?? [];
    for (const [, v] of list) values.push(v);
    REPEATED.add(values);
    out[name] = values;
  }
  return out;
}

/** Number of `&`-separated pieces that are not empty, counting no further than `limit + 1`. */
function countPairs(text: string, limit: number): number {
  let count = 0;
  let start = 0;
  while (start <= text.length && count <= limit) {
    let end = text.indexOf('&', start);
    if (end < 0) end = text.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

/** `a=1&b=2` (query string or form body) as a ParamRecord. More than MAX_PARAMS pairs → 400. */
export function parseUrlEncoded(text: string): ParamRecord {
  if (countPairs(text, MAX_PARAMS) > MAX_PARAMS) throw tooManyParams();
  return paramsFromPairs(new URLSearchParams(text).entries());
}

/** Query < body: a body value wins over the same name in the query. */
export function mergeParams(query: ParamRecord, body: ParamRecord | undefined): ParamRecord {
  const out: ParamRecord = Object.create(null) as ParamRecord;
  for (const source of [query, body ?? {}]) {
    for (const [k, v] of Object.entries(source)) if (!FORBIDDEN_KEYS.has(k)) out[k] = v;
  }
  return out;
}

/** A zod failure as a 400 naming the first bad parameter: `per_page: must be a positive integer`. */
export function paramError(error: z.ZodError, input: unknown): ReturnType<typeof badRequest> {
  const issue = error.issues[0];
  const key = issue?.path[0];
  if (issue === undefined || key === undefined)
    return badRequest(issue ? lowerFirst(issue.message) : 'Invalid parameters.');
  const param = String(key);
  const present =
    input !== null && typeof input === 'object' && (input as Record<string, unknown>)[param] !== undefined;
  const text = present ? lowerFirst(issue.message) : 'is required';
  return badRequest(`${param}: ${text}`, param);
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

// --- zParam -------------------------------------------------------------------------------------

/** A repeated scalar parameter: the last value wins (docs/api/conventions.md, Parameters). */
const last = lastValue;

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER as never;
}

function intMessage(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `must be an integer from ${min} to ${max}`;
  if (min === 1) return 'must be a positive integer';
  if (min === 0) return 'must be a non-negative integer';
  if (min !== undefined) return `must be an integer of at least ${min}`;
  if (max !== undefined) return `must be an integer of at most ${max}`;
  return 'must be an integer';
}

function toInt(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d{1,16}$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

const MAX_ID = Number.MAX_SAFE_INTEGER;

// JSON escapes can smuggle half a surrogate pair, which has no UTF-8 encoding.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const zParam = {
  /**
   * Decimal digits with an optional `-` (or a JSON integer) within [min, max]. With `clamp`, values
   * above `max` become `max` instead of failing (docs/security.md, limits: `per_page`, `count`, `limit`).
   */
  int: (opts: { min?: number; max?: number; clamp?: boolean } = {}) =>
    z.unknown().transform((raw, ctx): number => {
      const n = toInt(last(raw));
      const message = intMessage(opts.min, opts.max);
      if (n === undefined) return fail(ctx, message);
      if (opts.min !== undefined && n < opts.min) return fail(ctx, message);
      if (opts.max !== undefined && n > opts.max) return opts.clamp ? opts.max : fail(ctx, message);
      return n;
    }),

  /** A path or body id: a positive integer within the safe range. */
  id: () => zParam.int({ min: 1, max: MAX_ID }),

  /** `true`/`false`/`1`/`0` (strings or JSON values). */
  bool: () =>
    z.unknown().transform((raw, ctx): boolean => {
      const v = last(raw);
      if (v === true || v === 'true' || v === '1' || v === 1) return true;
      if (v === false || v === 'false' || v === '0' || v === 0) return false;
      return fail(ctx, 'must be true or false');
    }),

  /**
   * Integer ids from a JSON array, repeated `name=`, `name[]=`, `name[N]=`, or one comma-separated
   * string (`1,2,3`). At most `max` ids.
   */
  idArray: (opts: { max: number }) =>
    z.unknown().transform((raw, ctx): number[] => {
      const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
      const ids: number[] = [];
      for (const item of items) {
        const s = typeof item === 'string' ? item.trim() : item;
        if (s === '' && items.length === 1) continue;
        const n = toInt(s);
        if (n === undefined || n < 1) return fail(ctx, 'must be a list of integer ids');
        ids.push(n);
      }
      if (ids.length > opts.max) return fail(ctx, `must have at most ${opts.max} ids`);
      return ids;
    }),

  /** Text without NUL characters, optionally trimmed, within [min, max] characters. */
  string: (opts: { max: number; min?: number; trim?: boolean }) =>
    z.unknown().transform((raw, ctx): string => {
      const v = last(raw);
      if (typeof v !== 'string') return fail(ctx, 'must be a string');
      const s = opts.trim ? v.trim() : v;
      if (s.includes('\u0000')) return fail(ctx, 'must not contain NUL characters');
      if (LONE_SURROGATE.test(s)) return fail(ctx, 'must be valid UTF-8 text');
      const min = opts.min ?? 0;
      if (s.length < min)
        return fail(ctx, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
      if (s.length > opts.max) return fail(ctx, `must be at most ${opts.max} characters`);
      return s;
    }),

  /** An absolute http(s) URL with a host, ≤ 2048 characters; the WHATWG-normalised form. */
  url: (opts: { max?: number } = {}) =>
    z.unknown().transform((raw, ctx): string => {
      const v = last(raw);
      const max = opts.max ?? 2048;
      if (typeof v !== 'string' || v.trim().length > max) return fail(ctx, 'must be an absolute http(s) URL');
      let url: URL;
      try {
        url = new URL(v.trim());
      } catch {
        return fail(ctx, 'must be an absolute http(s) URL');
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
        return fail(ctx, 'must be an absolute http(s) URL');
      }
      return url.href;
    }),

  /** One of a fixed list of words. */
  enum: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.unknown().transform((raw, ctx): T[number] => {
      const v = last(raw);
      if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T[number];
      return fail(ctx, `must be one of ${values.join(', ')}`);
    }),
};
