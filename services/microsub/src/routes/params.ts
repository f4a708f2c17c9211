// Reading /microsub parameters in every spelling Microsub clients send (docs/api/microsub.md
// "Parameters"): query, form or JSON body; entry lists as `entry`, `entry[]`, `entry[N]` or a JSON
// array. Helpers throw 400 `invalid_request` naming the parameter.
import { badRequest } from '@murmur/core';
import { lastValue, type ParamRecord } from '@murmur/http';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Entries one mark/remove request may name. */
export const MAX_ENTRIES = 1000;

/** The last of a name repeated in a query or form; a JSON array stays an array, refused as the wrong type. */
const lastOf = lastValue;

/** A single text parameter (the last value wins); undefined when absent. */
export function text(params: ParamRecord, name: string, max: number): string | undefined {
  const v = lastOf(params[name]);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw badRequest(`${name}: must be a string`, name);
  const s = String(v);
  if (s.includes('\u0000')) throw badRequest(`${name}: must not contain NUL characters`, name);
  if (s.length > max) throw badRequest(`${name}: must be at most ${max} characters`, name);
  return s;
}

/** `limit`: integer ≥ 1, default 20, above 100 clamped to 100. */
export function limitOf(params: ParamRecord): number {
  const v = lastOf(params.limit);
  if (v === undefined) return DEFAULT_LIMIT;
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !/^\d{1,16}$/.test(s) || Number(s) < 1) {
    throw badRequest('limit: must be a positive integer', 'limit');
  }
  return Math.min(Number(s), MAX_LIMIT);
}

/** `is_read`: `true`/`false` (or `1`/`0`); undefined when absent. */
export function isReadOf(params: ParamRecord): boolean | undefined {
  const v = lastOf(params.is_read);
  if (v === undefined) return undefined;
  if (v === true || v === 'true' || v === '1' || v === 1) return true;
  if (v === false || v === 'false' || v === '0' || v === 0) return false;
  throw badRequest('is_read: must be true or false', 'is_read');
}

/** A list parameter (`x`, `x[]`, `x[N]`, a JSON array) of non-empty strings; [] when absent. */
export function listOf(params: ParamRecord, name: string, maxItems: number, maxLength: number): string[] {
  const raw = params[name];
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > maxItems) throw badRequest(`${name}: at most ${maxItems} values`, name);
  return list.map((v) => {
    if (
      (typeof v !== 'string' && typeof v !== 'number') ||
      String(v) === '' ||
      String(v).length > maxLength
    ) {
      throw badRequest(`${name}: each value must be a string of 1 to ${maxLength} characters`, name);
    }
    return String(v);
  });
}

/** `entry` in every array form, as `_id` strings; [] when absent. */
export function entriesOf(params: ParamRecord): string[] {
  const raw = params.entry;
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > MAX_ENTRIES) throw badRequest(`entry: at most ${MAX_ENTRIES} entries`, 'entry');
  return list.map((v) => {
    if ((typeof v !== 'string' && typeof v !== 'number') || String(v).length > 64 || String(v) === '') {
      throw badRequest('entry: each entry must be an _id', 'entry');
    }
    return String(v);
  });
}
