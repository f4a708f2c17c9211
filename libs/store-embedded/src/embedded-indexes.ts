// Index definitions for the embedded adapter (docs/adr/0008-embedded-store-durability.md). nedb
// indexes one field, keeps every document with the same key in one array (so removing one of them
// copies the array: quadratic on a low-cardinality field) and knows nothing of compound keys,
// MongoDB's null-for-missing rule or sparse compound indexes. So every index is kept as a hidden
// field (`__ix_<name>`) holding the document's keys as order-preserving strings (embedded-keys.ts),
// with a sparse nedb index on that field. A unique index's keys are the indexed values (nedb refuses
// duplicates); any other index's keys end with the document's `_id`, so no two documents ever share
// a key and every insert, update and delete is O(log n). The hidden fields are recomputed whenever a
// collection is loaded and on every write, and stripped from every result. The definitions live in
// a catalog so they survive a restart.
import { defaultIndexName, isPlainObject, type Plain } from '@murmur/store';
import { Datastore } from './nedb.js';
import type { IndexOptions } from '@murmur/store';
import { encodeComponent } from './embedded-keys.js';
import { GroupCommitFile, makeDurable, type DurabilityOptions } from './embedded-durable.js';
import { cloneValue, pathValues } from './values.js';

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

/** Sets (or removes) the hidden key fields of a document about to be stored. */
export function setIndexKeys(doc: Plain, specs: IndexSpec[]): void {
  for (const spec of specs) {
    const keys = indexKeys(doc, spec);
    if (keys === undefined) delete doc[hiddenField(spec)];
    else doc[hiddenField(spec)] = keys;
  }
}

/** Removes every hidden field (stale ones from an older version or a dropped index included). */
export function clearIndexKeys(doc: Plain): void {
  for (const k of Object.keys(doc)) if (k.startsWith(HIDDEN_PREFIX)) delete doc[k];
}

/** A deep copy of a stored document without the hidden fields: what callers get. */
export function visibleCopy(stored: Plain): Plain {
  const out: Plain = {};
  const keys = Object.keys(stored);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = stored[k];
    if (v !== undefined && !k.startsWith(HIDDEN_PREFIX)) out[k] = cloneValue(v, k);
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
  remove(collection: string, name: string): Promise<void>;
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
  async remove(collection: string, name: string): Promise<void> {
    this.specs.set(
      collection,
      (this.specs.get(collection) ?? []).filter((s) => s.name !== name),
    );
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

  constructor(filename: string, durability: DurabilityOptions = { fsync: true }) {
    this.db = new Datastore({ filename });
    makeDurable(this.db as unknown as Datastore<Plain>, new GroupCommitFile(filename, durability));
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

  async remove(collection: string, name: string): Promise<void> {
    await this.loaded;
    await this.db.removeAsync({ _id: `${collection}/${name}` }, {});
  }

  async close(): Promise<void> {
    await this.loaded.catch(() => undefined);
    await this.db.compactDatafileAsync();
  }
}
