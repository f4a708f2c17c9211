// `page` / `per_page` of paged lists (docs/api/reader.md, docs/security.md, limits): per_page is clamped to the maximum,
// anything that is not a whole number ≥ 1 is a 400 naming the parameter.
import { badRequest } from '@murmur/core';
import { lastValue } from '../params.js';

export interface PageRequest {
  page: number;
  perPage: number;
  /** Records to skip: (page − 1) × perPage. */
  offset: number;
}

export interface PageLimits {
  defaultPerPage: number;
  maxPerPage: number;
}

export function parsePage(input: { page?: unknown; per_page?: unknown }, limits: PageLimits): PageRequest {
  const page = positiveInteger(input.page, 'page') ?? 1;
  const perPage = Math.min(
    positiveInteger(input.per_page, 'per_page') ?? limits.defaultPerPage,
    limits.maxPerPage,
  );
  return { page, perPage, offset: (page - 1) * perPage };
}

/** Integers as docs/api/conventions.md defines them: decimal digits (a leading `-` only to be refused here), or an integral JSON number. */
function positiveInteger(value: unknown, param: string): number | undefined {
  // A parameter repeated in a query string or form: the last value wins (a JSON array is no integer).
  const last = lastValue(value);
  if (last === undefined || last === null) return undefined;
  const n =
    typeof last === 'number' ? last : typeof last === 'string' && /^-?\d+$/.test(last) ? Number(last) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw badRequest('Must be a positive integer', param);
  return n;
}
