// Index definitions for the embedded adapter. nedb indexes one field and knows nothing of compound
// unique indexes, MongoDB's null-for-missing rule or sparse compound keys, so every unique index is
// kept as a hidden field (`__ix_<name>`) holding the document's index keys as canonical strings, with
// a unique sparse nedb index on that field. The field is recomputed on every write and stripped from
// every result. The definitions themselves live in a catalog so they survive a restart.
import { Datastore } from './nedb.js';
import type { IndexOptions } from './port.js';
import { cloneValue, encodeKey, isPlainObject, pathValues, type Plain } from './values.js';

export interface IndexSpec {
  name: string;
  fields: [string, 1 | -1][];
  unique: boolean;
  sparse: boolean;
  expireAfterSeconds?: number;
}

export const HIDDEN_PREFIX = '__ix_';

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

/** Both adapters name an index this way when the caller gives no name, so error reports agree. */
export function defaultIndexName(fields: Record<string, 1 | -1>): string {
  return Object.keys(fields).join('_');
}

export function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b));
}

function normalised(s: IndexSpec): unknown[] {
  return [s.name, s.fields, s.unique, s.sparse, s.expireAfterSeconds ?? null];
}

export function hiddenField(spec: IndexSpec): string {
  return HIDDEN_PREFIX + spec.name.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * The keys a document contributes to a unique index, MongoDB-style: a missing field counts as null,
 * an array contributes each element (one key per combination), and a sparse index skips documents
 * that have none of the fields. `undefined` means "not indexed".
 */
export function uniqueKeys(doc: Plain, spec: IndexSpec): string[] | undefined {
  const reached = spec.fields.map(([path]) => pathValues(doc, path));
  if (spec.sparse && reached.every((values) => values.every((v) => v === undefined))) return undefined;
  const choices = reached.map((values) =>
    values.flatMap((v) => (Array.isArray(v) ? (v.length > 0 ? v : [[]]) : [v])),
  );
  let tuples: unknown[][] = [[]];
  for (const options of choices) tuples = tuples.flatMap((t) => options.map((o) => [...t, o]));
  return [...new Set(tuples.map((t) => encodeKey(t)))];
}

/** Sets (or removes) the hidden key fields of a document about to be stored. */
export function setIndexKeys(doc: Plain, uniqueSpecs: IndexSpec[]): void {
  for (const spec of uniqueSpecs) {
    const keys = uniqueKeys(doc, spec);
    if (keys === undefined) delete doc[hiddenField(spec)];
    else doc[hiddenField(spec)] = keys;
  }
}

/** A deep copy of a stored document without the hidden fields: what callers get. */
export function visibleCopy(stored: Plain): Plain {
  const out: Plain = {};
  for (const [k, v] of Object.entries(stored)) {
    if (!k.startsWith(HIDDEN_PREFIX) && v !== undefined) out[k] = cloneValue(v, k);
  }
  return out;
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

/** Where index definitions are kept between restarts. */
export interface IndexCatalog {
  load(collection: string): Promise<IndexSpec[]>;
  save(collection: string, spec: IndexSpec): Promise<void>;
  close(): Promise<void>;
}

export class MemoryIndexCatalog implements IndexCatalog {
  private readonly specs = new Map<string, IndexSpec[]>();
  async load(collection: string): Promise<IndexSpec[]> {
    return [...(this.specs.get(collection) ?? [])];
  }
  async save(collection: string, spec: IndexSpec): Promise<void> {
    this.specs.set(collection, [...(this.specs.get(collection) ?? []), spec]);
  }
  async close(): Promise<void> {}
}

/**
 * One nedb file next to the collections. Its name starts with `system.`, which no collection may
 * use (as in MongoDB), so it cannot clash with one.
 */
export class FileIndexCatalog implements IndexCatalog {
  private readonly db: Datastore<{ _id: string; collection: string; spec: IndexSpec }>;
  private readonly loaded: Promise<void>;

  constructor(filename: string) {
    this.db = new Datastore({ filename });
    this.loaded = this.db.loadDatabaseAsync();
  }

  async load(collection: string): Promise<IndexSpec[]> {
    await this.loaded;
    const rows = await this.db.findAsync({ collection });
    return rows.map((r) => r.spec).filter((s) => isPlainObject(s) && typeof s.name === 'string');
  }

  async save(collection: string, spec: IndexSpec): Promise<void> {
    await this.loaded;
    const _id = `${collection}/${spec.name}`;
    // The replacement carries `_id` because nedb's upsert of a replacement ignores the query's fields.
    await this.db.updateAsync({ _id }, { _id, collection, spec }, { upsert: true });
  }

  async close(): Promise<void> {
    await this.loaded.catch(() => undefined);
    await this.db.compactDatafileAsync();
  }
}
