// Sorts and projections with MongoDB's meaning, for the embedded adapter (filters: filter.ts).
import { isPlainObject, type Plain } from '@murmur/store';
import type { Projection, Sort } from '@murmur/store';
import { compareValues, pathValues } from './values.js';

/**
 * Sorts documents (a new array). An array field sorts by its smallest element ascending, its largest
 * descending; a missing field sorts like null. Keys are computed once per document, not per comparison.
 */
export function sortDocuments<D extends Plain>(docs: D[], sort: Sort): D[] {
  const fields = Object.entries(sort);
  const keyed = docs.map((doc) => ({ doc, keys: fields.map(([path, dir]) => sortKey(doc, path, dir)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const c = compareValues(a.keys[i], b.keys[i]) * fields[i]![1];
      if (c !== 0) return c;
    }
    return 0;
  });
  return keyed.map((k) => k.doc);
}

function sortKey(doc: Plain, path: string, dir: 1 | -1): unknown {
  const leaves = pathValues(doc, path)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v) => v !== undefined);
  if (leaves.length === 0) return null;
  return leaves.reduce((best, v) => (compareValues(v, best) * dir < 0 ? v : best));
}

/** Applies a projection to a document the caller owns (it may be returned as is). */
export function project(doc: Plain, projection: Projection | undefined): Plain {
  return projector(projection)(doc);
}

const unchanged = (doc: Plain): Plain => doc;

/**
 * A projection made once into a function for every document of a query (project is one call of it):
 * the projection's fields are read and split once, not once a document. Reading 200,000 posts' heads
 * spent more time applying the projection a document at a time than parsing the documents.
 * The function may return the document it is given, changed.
 */
export function projector(projection: Projection | undefined): (doc: Plain) => Plain {
  if (!projection) return unchanged;
  const fields = Object.entries(projection).filter(([k]) => k !== '_id');
  // `{ _id: 1 }` alone asks for the id only, as in MongoDB.
  const including = fields.some(([, v]) => v === 1) || (fields.length === 0 && projection._id === 1);
  if (including && fields.some(([, v]) => v === 0)) {
    throw new Error('a projection cannot mix inclusion and exclusion (except for _id)');
  }
  const paths = fields.map(([path]) => path.split('.'));
  const keepId = projection._id !== 0;
  if (!including) {
    return (doc) => {
      for (const parts of paths) removePath(doc, parts);
      if (!keepId) delete doc._id;
      return doc;
    };
  }
  // Top-level fields only (the common case): one loop over their names.
  if (paths.every((parts) => parts.length === 1)) {
    const names = paths.map((parts) => parts[0]!);
    return (doc) => {
      const out: Plain = {};
      if (keepId && doc._id !== undefined) out._id = doc._id;
      for (const name of names) if (name in doc) out[name] = doc[name];
      return out;
    };
  }
  return (doc) => {
    const out: Plain = {};
    if (keepId && doc._id !== undefined) out._id = doc._id;
    for (const parts of paths) copyPath(doc, out, parts);
    return out;
  };
}

function copyPath(src: Plain, dst: Plain, parts: string[]): void {
  const [head, ...rest] = parts as [string, ...string[]];
  if (!(head in src)) return;
  const value = src[head];
  if (rest.length === 0) {
    dst[head] = value;
  } else if (Array.isArray(value)) {
    const existing = Array.isArray(dst[head]) ? (dst[head] as Plain[]) : undefined;
    const objects = value.filter(isPlainObject);
    dst[head] = objects.map((el, i) => {
      const target = existing?.[i] ?? {};
      copyPath(el, target, rest);
      return target;
    });
  } else if (isPlainObject(value)) {
    const target = isPlainObject(dst[head]) ? (dst[head] as Plain) : {};
    copyPath(value, target, rest);
    dst[head] = target;
  }
}

function removePath(doc: unknown, parts: string[]): void {
  const [head, ...rest] = parts as [string, ...string[]];
  if (Array.isArray(doc)) {
    for (const el of doc) removePath(el, parts);
  } else if (isPlainObject(doc)) {
    if (rest.length === 0) delete doc[head];
    else removePath(doc[head], rest);
  }
}
