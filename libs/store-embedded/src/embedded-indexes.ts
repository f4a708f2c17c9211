// Index definitions of the embedded store and the keys a document contributes to each
// (docs/adr/0017-embedded-store-sqlite.md): sqlite-collection.ts keeps one key table per index, with
// these keys as order-preserving strings (embedded-keys.ts). A unique index's keys are the indexed
// values; any other index's keys end with the document's `_id`, so no two documents share a key and
// every insert, update and delete is one key-table write per key.
import { defaultIndexName, type Plain } from '@murmur/store';
import type { IndexOptions } from '@murmur/store';
import { encodeComponent } from './embedded-keys.js';
import { pathValues } from './values.js';

export interface IndexSpec {
  name: string;
  fields: [string, 1 | -1][];
  unique: boolean;
  sparse: boolean;
  expireAfterSeconds?: number;
}

export function indexSpec(fields: Record<string, 1 | -1>, options: IndexOptions = {}): IndexSpec {
  const entries = Object.entries(fields);
  if (entries.length === 0) throw new Error('an index needs at least one field');
  for (const [field, dir] of entries) {
    if (dir !== 1 && dir !== -1) throw new Error(`index direction for ${field} must be 1 or -1`);
  }
  if (options.expireAfterSeconds !== undefined) {
    if (entries.length !== 1) throw new Error('a TTL index has exactly one field');
    if (!(options.expireAfterSeconds >= 0)) throw new Error('expireAfterSeconds must be 0 or more');
  }
  return {
    name: options.name ?? defaultIndexName(fields),
    fields: entries,
    unique: options.unique ?? false,
    sparse: options.sparse ?? false,
    ...(options.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: options.expireAfterSeconds }),
  };
}

export function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b));
}

function normalised(s: IndexSpec): unknown[] {
  return [s.name, s.fields, s.unique, s.sparse, s.expireAfterSeconds ?? null];
}

/**
 * The keys a document contributes to an index, MongoDB-style: a missing field counts as null, an
 * array contributes each element (one key per combination), and a sparse index skips documents that
 * have none of the fields. `undefined` means "not indexed". Keys of non-unique indexes end with the
 * document's `_id`.
 */
export function indexKeys(doc: Plain, spec: IndexSpec): string[] | undefined {
  const reached = spec.fields.map(([path]) => pathValues(doc, path));
  if (spec.sparse && reached.every((values) => values.every((v) => v === undefined))) return undefined;
  const choices = reached.map((values) => [
    ...new Set(
      values.flatMap((v) => (Array.isArray(v) ? (v.length > 0 ? v : [[]]) : [v])).map(encodeComponent),
    ),
  ]);
  let keys = [''];
  for (const options of choices) keys = keys.flatMap((k) => options.map((o) => k + o));
  if (!spec.unique) {
    const id = encodeComponent(doc._id);
    keys = keys.map((k) => k + id);
  }
  return keys;
}

/** A TTL index's field holds a date (or dates: the earliest counts) more than `expireAfterSeconds` ago. */
export function isExpired(doc: Plain, ttlSpecs: IndexSpec[], now: number): boolean {
  return ttlSpecs.some((spec) => {
    const dates = pathValues(doc, spec.fields[0]![0])
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .filter((v): v is Date => v instanceof Date);
    if (dates.length === 0) return false;
    const earliest = Math.min(...dates.map((d) => d.getTime()));
    return earliest + spec.expireAfterSeconds! * 1000 <= now;
  });
}
