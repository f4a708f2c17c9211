// Which index answers a filter, for both embedded engines (docs/adr/0008-embedded-store-durability.md,
// docs/adr/0017-embedded-store-sqlite.md). Every index is a set of order-preserving string keys
// (embedded-keys.ts); a plan is the ranges of keys that hold every document the filter can match.
// Only conditions that never reject a document MongoDB would accept narrow the candidates; the
// compiled filter (filter.ts) decides every candidate.
import { isOperatorObject } from '@murmur/store';
import type { Filter, Sort } from '@murmur/store';
import type { IndexSpec } from './embedded-indexes.js';
import { HIGH, encodeComponent, rangeTag } from './embedded-keys.js';

export type Bounds = Partial<Record<'$gt' | '$gte' | '$lt' | '$lte', string>>;

export interface IndexPlan {
  spec: IndexSpec;
  /** One key range per combination of the equality values (`$in` gives several). */
  bounds: Bounds[];
  /** Walking the ranges in key order gives the query's sort (reverse order when `reverse`). */
  ordered: boolean;
  reverse: boolean;
}

/**
 * The best index: the one with the most leading fields fixed by equality (or `$in`), then a range on
 * the next one; between two that narrow alike, one that also gives the sort (walksInSortOrder).
 */
export function planIndex(
  specs: IndexSpec[],
  filter: Filter,
  sort: Sort | undefined,
  isMultikey: (name: string) => boolean,
): IndexPlan | undefined {
  let best: (IndexPlan & { score: number }) | undefined;
  for (const spec of specs) {
    let prefixes = [''];
    let fixed = 0;
    for (const [path] of spec.fields) {
      const values = Object.hasOwn(filter, path) ? equalityValues(filter[path]) : undefined;
      if (!values) break;
      // A sparse index does not hold the documents lacking its fields, which `null` matches.
      if (spec.sparse && values.includes(null)) {
        prefixes = [];
        break;
      }
      // More than 256 ranges: stop at the fields fixed so far (a wider range loses no match), so
      // `{feedId, key: {$in: [1,000 keys]}}` still reads one feed's range instead of every document.
      const longer = prefixes.flatMap((p) => values.map((v) => p + encodeComponent(v)));
      if (longer.length > 256) break;
      prefixes = longer;
      fixed += 1;
    }
    if (prefixes.length === 0) continue;
    const next = spec.fields[fixed]?.[0];
    const range = next !== undefined && Object.hasOwn(filter, next) ? rangeBounds(filter[next]) : undefined;
    const score = fixed * 2 + (range ? 1 : 0);
    if (score === 0 || (best && best.score > score)) continue;
    const sortEntries = sort ? Object.entries(sort) : [];
    const ordered =
      prefixes.length === 1 &&
      walksInSortOrder(spec, fixed, sortEntries, Boolean(range), isMultikey(spec.name));
    if (best && best.score === score && (best.ordered || !ordered)) continue;
    const bounds = prefixes.map((p) =>
      range
        ? { [range.low.op]: p + range.low.key, [range.high.op]: p + range.high.key }
        : { $gte: p, $lt: p + HIGH },
    );
    // Descending: walking the keys backwards meets each document at its largest value first, as
    // MongoDB sorts arrays descending.
    const reverse = ordered && sortEntries[0]![1] === -1;
    best = { spec, score, bounds, ordered, reverse };
  }
  if (!best) return undefined;
  const { score: _score, ...plan } = best;
  return plan;
}

/**
 * Whether walking one key range of `spec` — its first `fixed` fields equal, the next one whole or in a
 * range — meets the documents in the order of `sort`, so a limit can stop the walk. Keys hold values
 * ascending whatever the index's direction (embedded-keys.ts) and are walked backwards for -1, so the
 * sort must name the fields after the fixed ones in index order, all in one direction; `_id` may end it
 * once every field is named (a non-unique index's keys end with the `_id`, a unique one has no ties).
 *
 * Arrays: a document is met at its first key in the walk, its smallest element walking forwards, its
 * largest backwards, which is how MongoDB sorts arrays (query.ts); a combination of several arrays'
 * elements is met at the smallest (largest) of each. That holds only when the walk covers every
 * element: with a range on the first sort field an array's extreme may lie outside it, so an index
 * flagged multikey then narrows without presorting. Key order is MongoDB's order for null (and
 * missing), numbers, strings, booleans and dates; embedded documents and empty arrays have keys after
 * dates (MongoDB sorts them after strings and before null), so a presorted field holding them comes
 * back in key order. No query of ours sorts on such a field.
 */
function walksInSortOrder(
  spec: IndexSpec,
  fixed: number,
  sort: [string, 1 | -1][],
  ranged: boolean,
  multikey: boolean,
): boolean {
  if (sort.length === 0 || (ranged && multikey)) return false;
  const direction = sort[0]![1];
  const rest = spec.fields.slice(fixed).map(([path]) => path);
  return sort.every(
    ([path, dir], i) =>
      dir === direction && (i < rest.length ? path === rest[i] : path === '_id' && i === sort.length - 1),
  );
}

/** The values an equality (or `$in`, `$eq`) condition allows, when they are all plain scalars or null. */
export function equalityValues(cond: unknown): unknown[] | undefined {
  if (isScalar(cond) || cond === null) return [cond];
  if (!isOperatorObject(cond)) return undefined;
  const ops = Object.keys(cond);
  if (ops.length !== 1) return undefined;
  if (ops[0] === '$eq' && (isScalar(cond.$eq) || cond.$eq === null)) return [cond.$eq];
  if (ops[0] === '$in' && Array.isArray(cond.$in) && cond.$in.every((v) => isScalar(v) || v === null))
    return cond.$in as unknown[];
  return undefined;
}

interface Bound {
  op: '$gt' | '$gte' | '$lt' | '$lte';
  key: string;
}

/** Key bounds (after the prefix) for `$gt $gte $lt $lte` on numbers or dates, all of one type. */
function rangeBounds(cond: unknown): { low: Bound; high: Bound } | undefined {
  if (!isOperatorObject(cond)) return undefined;
  const ops = Object.entries(cond);
  if (!ops.every(([op]) => ['$gt', '$gte', '$lt', '$lte'].includes(op))) return undefined;
  const tags = new Set(ops.map(([, v]) => rangeTag(v)));
  const [tag] = [...tags];
  if (tags.size !== 1 || tag === undefined) return undefined;
  // Keys equal to v on this field are `enc(v)` followed by more components, all below enc(v)+HIGH.
  let low: Bound = { op: '$gte', key: tag };
  let high: Bound = { op: '$lt', key: tag + HIGH };
  for (const [op, v] of ops) {
    const enc = encodeComponent(v);
    if (op === '$gt' || op === '$gte') {
      const b: Bound = op === '$gt' ? { op: '$gte', key: enc + HIGH } : { op: '$gte', key: enc };
      if (b.key > low.key) low = b;
    } else {
      const b: Bound = op === '$lt' ? { op: '$lt', key: enc } : { op: '$lt', key: enc + HIGH };
      if (b.key < high.key) high = b;
    }
  }
  return { low, high };
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date;
}
