// Update operators with MongoDB's meaning, applied by the embedded adapter to a copy of the stored
// document (the copy is then written back whole, so the unique key tables check the result).
import { isOperatorObject, isPlainObject, type Plain } from '@murmur/store';
import type { Filter, Update } from '@murmur/store';
import { matches, valueMatches } from './filter.js';
import { cloneValue, compareValues, valuesEqual } from './values.js';

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$push',
  '$addToSet',
  '$pull',
  '$min',
  '$max',
  '$setOnInsert',
]);

/** Throws on what MongoDB would refuse: an empty update, a replacement document, an unknown operator. */
export function assertUpdate(update: Update): void {
  const ops = Object.keys(update);
  if (ops.length === 0) throw new Error('update is empty');
  for (const op of ops) {
    if (!OPERATORS.has(op)) {
      throw new Error(
        op.startsWith('$') ? `unsupported update operator ${op}` : 'update must use operators only',
      );
    }
    if (!isPlainObject((update as Plain)[op])) throw new Error(`${op} needs an object`);
  }
}

/** Applies `update` to `doc` in place. `$setOnInsert` only counts when `inserting`. */
export function applyUpdate(doc: Plain, update: Update, inserting: boolean): void {
  for (const [op, fields] of Object.entries(update) as [string, Plain][]) {
    if (op === '$setOnInsert' && !inserting) continue;
    for (const [path, value] of Object.entries(fields)) {
      // Matches the MongoDB adapter's `ignoreUndefined`: `{$set: {a: undefined}}` leaves `a` alone.
      if (value === undefined) continue;
      if (!inserting && (path === '_id' || path.startsWith('_id.'))) {
        if (op === '$set' && valuesEqual(doc._id, value)) continue;
        throw new Error('_id cannot be changed');
      }
      applyOperator(doc, op, path, value);
    }
  }
}

function applyOperator(doc: Plain, op: string, path: string, value: unknown): void {
  const parts = path.split('.');
  const current = getAt(doc, parts);
  switch (op) {
    case '$set':
    case '$setOnInsert':
      return setAt(doc, parts, cloneValue(value, path));
    case '$unset':
      return unsetAt(doc, parts);
    case '$inc':
      if (typeof value !== 'number') throw new Error(`$inc on ${path} needs a number`);
      if (current === undefined) return setAt(doc, parts, value);
      if (typeof current !== 'number') throw new Error(`cannot $inc non-numeric field ${path}`);
      return setAt(doc, parts, current + value);
    case '$min':
    case '$max': {
      if (current === undefined) return setAt(doc, parts, cloneValue(value, path));
      const c = compareValues(value, current);
      if (op === '$min' ? c < 0 : c > 0) setAt(doc, parts, cloneValue(value, path));
      return;
    }
    case '$push':
    case '$addToSet': {
      const arr = arrayAt(doc, parts, path, op, true)!;
      const { items, slice } = eachItems(op, value);
      for (const item of items) {
        if (op === '$push' || !arr.some((x) => valuesEqual(x, item))) arr.push(cloneValue(item, path));
      }
      if (slice !== undefined) {
        const kept = slice === 0 ? [] : slice > 0 ? arr.slice(0, slice) : arr.slice(slice);
        arr.splice(0, arr.length, ...kept);
      }
      return;
    }
    case '$pull': {
      const arr = arrayAt(doc, parts, path, op, false);
      if (!arr) return;
      const kept = arr.filter((el) => !pullMatches(el, value));
      arr.splice(0, arr.length, ...kept);
      return;
    }
  }
}

function eachItems(op: string, value: unknown): { items: unknown[]; slice?: number } {
  if (!isOperatorObject(value)) return { items: [value] };
  const { $each, $slice, ...rest } = value;
  if (!Array.isArray($each)) throw new Error(`${op} modifiers need $each with an array`);
  const extra = Object.keys(rest);
  if (extra.length > 0 || (op === '$addToSet' && $slice !== undefined)) {
    throw new Error(`unsupported ${op} modifier ${extra[0] ?? '$slice'}`);
  }
  if ($slice !== undefined && !Number.isInteger($slice)) throw new Error('$slice needs an integer');
  return { items: $each, slice: $slice as number | undefined };
}

function pullMatches(element: unknown, cond: unknown): boolean {
  if (isOperatorObject(cond)) return valueMatches(element, cond);
  // A document condition is a query on each element: `{$pull: {items: {id: 3}}}`.
  if (isPlainObject(cond)) return isPlainObject(element) && matches(element, cond);
  return valuesEqual(element, cond);
}

function arrayAt(
  doc: Plain,
  parts: string[],
  path: string,
  op: string,
  create: boolean,
): unknown[] | undefined {
  const current = getAt(doc, parts);
  if (current === undefined) {
    if (!create) return undefined;
    const arr: unknown[] = [];
    setAt(doc, parts, arr);
    return arr;
  }
  if (!Array.isArray(current)) throw new Error(`cannot ${op} on non-array field ${path}`);
  return current;
}

function getAt(doc: Plain, parts: string[]): unknown {
  let cur: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(cur) && /^\d+$/.test(part)) cur = cur[Number(part)];
    else if (isPlainObject(cur)) cur = cur[part];
    else return undefined;
  }
  return cur;
}

/** Walks to the parent of the last segment, creating embedded documents on the way. */
function parentOf(doc: Plain, parts: string[], create: boolean): Plain | unknown[] | undefined {
  let cur: Plain | unknown[] = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const next: unknown = Array.isArray(cur) ? cur[index(part, parts, i)] : cur[part];
    if (next === undefined) {
      if (!create) return undefined;
      const made: Plain = {};
      if (Array.isArray(cur)) cur[index(part, parts, i)] = made;
      else cur[part] = made;
      cur = made;
    } else if (isPlainObject(next) || Array.isArray(next)) {
      cur = next;
    } else {
      if (!create) return undefined;
      throw new Error(`cannot create field ${parts[i + 1]} in ${parts.slice(0, i + 1).join('.')}`);
    }
  }
  return cur;
}

function index(part: string, parts: string[], i: number): number {
  if (!/^\d+$/.test(part))
    throw new Error(`cannot use field name ${part} in array ${parts.slice(0, i).join('.')}`);
  return Number(part);
}

function setAt(doc: Plain, parts: string[], value: unknown): void {
  const parent = parentOf(doc, parts, true)!;
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) {
    const i = index(last, parts, parts.length - 1);
    while (parent.length < i) parent.push(null);
    parent[i] = value;
  } else {
    parent[last] = value;
  }
}

function unsetAt(doc: Plain, parts: string[]): void {
  const parent = parentOf(doc, parts, false);
  const last = parts[parts.length - 1]!;
  // MongoDB keeps array positions stable: unsetting an element leaves null in its place.
  if (Array.isArray(parent)) {
    if (/^\d+$/.test(last) && Number(last) < parent.length) parent[Number(last)] = null;
  } else if (parent) {
    delete parent[last];
  }
}

/**
 * The document an upsert starts from: the filter's equality conditions (top level, inside `$and`,
 * and `$eq`), as MongoDB builds it. The update is applied on top.
 */
export function upsertSeed(filter: Filter): Plain {
  const doc: Plain = {};
  const collect = (f: Filter) => {
    for (const [key, cond] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(cond)) (cond as Filter[]).forEach(collect);
      else if (key.startsWith('$')) continue;
      else if (!isOperatorObject(cond)) setAt(doc, key.split('.'), cloneValue(cond, key));
      else if ('$eq' in cond) setAt(doc, key.split('.'), cloneValue(cond.$eq, key));
    }
  };
  collect(filter);
  return doc;
}
