// Filters with MongoDB's meaning, for the embedded adapter (`{a: null}` matches a missing field,
// `$ne`/`$nin` on arrays, `$exists` on empty arrays, as MongoDB answers them). SQLite only narrows
// candidates through the key tables (embedded-plan.ts) and this
// module decides. A filter is compiled once per query into a predicate: scans of large collections
// then cost a few function calls per document and no allocation.
import { isOperatorObject, isPlainObject, type Plain } from '@murmur/store';
import type { Filter } from '@murmur/store';
import { compareValues, valuesEqual } from './values.js';

export type Predicate = (doc: Plain) => boolean;
type Test = (value: unknown) => boolean;
/** Tells whether a path (already split) matches, starting from `root`. */
type Condition = (root: unknown, parts: readonly string[]) => boolean;

export function compileFilter(filter: Filter): Predicate {
  const parts: Predicate[] = Object.entries(filter).map(([key, cond]) => {
    if (key === '$and' || key === '$or' || key === '$nor') {
      const subs = filterList(key, cond).map(compileFilter);
      if (key === '$and') return (doc) => subs.every((p) => p(doc));
      if (key === '$or') return (doc) => subs.some((p) => p(doc));
      return (doc) => !subs.some((p) => p(doc));
    }
    if (key.startsWith('$')) throw new Error(`unsupported filter operator ${key}`);
    const condition = compileCondition(cond);
    const path = key.split('.');
    return (doc) => condition(doc, path);
  });
  if (parts.length === 1) return parts[0]!;
  return (doc) => {
    for (const p of parts) if (!p(doc)) return false;
    return true;
  };
}

export function matches(doc: Plain, filter: Filter): boolean {
  return compileFilter(filter)(doc);
}

/** Matches one value (e.g. an array element for `$pull`) against an operator object or a value. */
export function valueMatches(value: unknown, cond: unknown): boolean {
  return compileCondition(cond)(value, []);
}

function filterList(op: string, value: unknown): Filter[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new Error(`${op} needs a non-empty array of filters`);
  return value as Filter[];
}

function compileCondition(cond: unknown): Condition {
  if (!isOperatorObject(cond)) return some(equalsTest(cond));
  const tests = Object.entries(cond).map(([op, arg]) => compileOperator(op, arg));
  if (tests.length === 1) return tests[0]!;
  return (root, parts) => tests.every((t) => t(root, parts));
}

function compileOperator(op: string, arg: unknown): Condition {
  switch (op) {
    case '$eq':
      return some(equalsTest(arg));
    case '$ne':
      return not(some(equalsTest(arg)));
    case '$in':
      return some(inTest(list(op, arg)));
    case '$nin':
      return not(some(inTest(list(op, arg))));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return some(rangeTest(op, arg));
    case '$exists':
      return arg ? some(isDefined) : not(some(isDefined));
    case '$not':
      if (!isOperatorObject(arg)) throw new Error('$not needs an operator object');
      return not(compileCondition(arg));
    default:
      throw new Error(`unsupported filter operator ${op}`);
  }
}

const isDefined: Test = (v) => v !== undefined;

function some(test: Test): Condition {
  return (root, parts) => someReached(root, parts, 0, test);
}

function not(condition: Condition): Condition {
  return (root, parts) => !condition(root, parts);
}

function anyOf(tests: Test[]): Test {
  return (v) => tests.some((t) => t(v));
}

/**
 * `$in` over a list: strings, numbers and booleans go into a Set, so a thousand-id `$in` costs one
 * lookup per document instead of a thousand comparisons; null, dates and documents keep their tests.
 */
function inTest(values: unknown[]): Test {
  const scalars = new Set<unknown>();
  const others: Test[] = [];
  for (const v of values) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') scalars.add(v);
    else others.push(equalsTest(v));
  }
  const other = anyOf(others);
  const single: Test = (v) => scalars.has(v) || (others.length > 0 && other(v));
  return (v) => single(v) || (Array.isArray(v) && v.some(single));
}

function list(op: string, arg: unknown): unknown[] {
  if (!Array.isArray(arg)) throw new Error(`${op} needs an array`);
  return arg;
}

/**
 * True when `test` holds for a value the path reaches. Arrays met on the way are traversed element by
 * element (or indexed when the segment is a number), so `items.id` reaches the id of each item; a
 * path that reaches nothing offers `undefined`.
 */
function someReached(value: unknown, parts: readonly string[], i: number, test: Test): boolean {
  if (i === parts.length) return test(value);
  const head = parts[i]!;
  if (Array.isArray(value)) {
    if (isIndex(head)) return someReached(value[Number(head)], parts, i + 1, test);
    let sawDocument = false;
    for (const el of value) {
      if (!isPlainObject(el)) continue;
      sawDocument = true;
      if (someReached(el[head], parts, i + 1, test)) return true;
    }
    return !sawDocument && test(undefined);
  }
  if (isPlainObject(value)) return someReached(value[head], parts, i + 1, test);
  return test(undefined);
}

function isIndex(segment: string): boolean {
  const c = segment.charCodeAt(0);
  return c >= 48 && c <= 57 && /^\d+$/.test(segment);
}

/** A reached array matches when it equals the value, or when one of its elements does. */
function equalsTest(expected: unknown): Test {
  if (expected instanceof RegExp) throw new Error('regular expressions are not supported in filters');
  let single: Test;
  if (expected === null || expected === undefined) {
    // `{a: null}` also matches documents where `a` is missing, as in MongoDB.
    single = (v) => v === null || v === undefined;
  } else if (typeof expected === 'string' || typeof expected === 'number' || typeof expected === 'boolean') {
    single = (v) => v === expected;
  } else if (expected instanceof Date) {
    const t = expected.getTime();
    single = (v) => v instanceof Date && v.getTime() === t;
  } else {
    single = (v) => valuesEqual(v, expected);
  }
  return (v) => single(v) || (Array.isArray(v) && v.some(single));
}

/** MongoDB compares within a type only: `{n: {$gt: 1}}` never matches a string. */
function rangeTest(op: string, arg: unknown): Test {
  const orEqual = op === '$gte' || op === '$lte';
  if (arg === null || arg === undefined) return orEqual ? equalsTest(null) : () => false;
  const bracket = rangeBracket(arg);
  const single: Test = (v) => {
    if (rangeBracket(v) !== bracket) return false;
    const c = compareValues(v, arg);
    return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
  };
  return (v) => single(v) || (Array.isArray(v) && v.some(single));
}

function rangeBracket(value: unknown): string {
  if (value instanceof Date) return 'date';
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}
