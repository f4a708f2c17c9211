// `page` / `per_page` of paged lists (docs/api/reader.md, docs/security.md, limits): per_page is clamped to the maximum,
// anything that is not a whole number ≥ 1 is a 400 naming the parameter.
import { badRequest } from '@murmur/core';

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
  // A parameter given twice in one source: the last value wins.
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined || last === null) return undefined;
  const n =
    typeof last === 'number' ? last : typeof last === 'string' && /^-?\d+$/.test(last) ? Number(last) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw badRequest('Must be a positive integer', param);
  return n;
}
