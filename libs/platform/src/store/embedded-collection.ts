// One embedded collection: a nedb datastore plus the MongoDB semantics nedb lacks. Writes go through
// a per-collection queue, so "find, then modify what was found" is atomic; modified documents are
// computed here (update.ts) and written back whole by `_id`, so nedb's unique indexes see the result.
import { Datastore } from './nedb.js';
import type { Filter, FindOneAndUpdateOptions, FindOptions, Sort, Update, UpdateResult } from './port.js';
import { DuplicateKeyError } from './port.js';
import { compileFilter } from './filter.js';
import { assertDefinedFilter, project, sortDocuments } from './query.js';
import { SerialQueue } from './serial.js';
import { applyUpdate, assertUpdate, upsertSeed } from './update.js';
import {
  hiddenField,
  isExpired,
  sameIndex,
  setIndexKeys,
  uniqueKeys,
  visibleCopy,
  type IndexCatalog,
  type IndexSpec,
} from './embedded-indexes.js';
import { cloneValue, isOperatorObject, newDocumentId, valuesEqual, type Plain } from './values.js';

interface Modification {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  before?: Plain;
  after?: Plain;
}

export class EmbeddedCollectionCore {
  readonly ready: Promise<void>;
  private readonly db: Datastore<Plain>;
  private readonly writes = new SerialQueue();
  private specs: IndexSpec[] = [];
  /** Fields with a nedb index, usable to narrow candidates. */
  private readonly indexedFields = new Set<string>(['_id']);
  /** Written to since the data file was last compacted. */
  private dirty = false;

  constructor(
    readonly name: string,
    private readonly filename: string | undefined,
    private readonly catalog: IndexCatalog,
  ) {
    this.db = new Datastore<Plain>(filename ? { filename } : { inMemoryOnly: true });
    this.ready = this.load();
    // A failed load is reported by every operation that awaits `ready`; this only avoids an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private async load(): Promise<void> {
    if (this.filename) await this.db.loadDatabaseAsync();
    for (const spec of await this.catalog.load(this.name)) {
      await this.ensureNedbIndexes(spec);
      this.specs.push(spec);
    }
  }

  private get uniqueSpecs(): IndexSpec[] {
    return this.specs.filter((s) => s.unique);
  }

  private get ttlSpecs(): IndexSpec[] {
    return this.specs.filter((s) => s.expireAfterSeconds !== undefined);
  }

  // ---- reads -------------------------------------------------------------------------------

  async find(filter: Filter, options: FindOptions = {}): Promise<Plain[]> {
    assertDefinedFilter(filter);
    const docs = await this.select(filter, options);
    return docs.map((d) => project(visibleCopy(d), options.projection));
  }

  async count(filter: Filter): Promise<number> {
    assertDefinedFilter(filter);
    return (await this.select(filter, {})).length;
  }

  /**
   * The stored documents (not copies: never mutate them) that match, in order. When the filter allows,
   * nedb narrows the candidates through an index and hands each to the compiled filter through
   * `$where` (which collects hits itself, so nedb copies nothing); otherwise every document is scanned.
   */
  private async select(
    filter: Filter,
    options: { sort?: Sort; skip?: number; limit?: number },
  ): Promise<Plain[]> {
    const test = compileFilter(filter);
    const now = Date.now();
    const ttl = this.ttlSpecs;
    const skip = Math.max(0, options.skip ?? 0);
    const limit = options.limit && options.limit > 0 ? options.limit : undefined;
    const wanted = options.sort || limit === undefined ? Infinity : skip + limit;
    const hits: Plain[] = [];
    const consider = (doc: Plain): false => {
      if (hits.length < wanted && (ttl.length === 0 || !isExpired(doc, ttl, now)) && test(doc))
        hits.push(doc);
      return false;
    };
    const narrowed = this.candidateQuery(filter);
    if (Object.keys(narrowed).length === 0) {
      for (const doc of this.db.getAllData()) {
        consider(doc);
        if (hits.length >= wanted) break;
      }
    } else {
      await this.db.findAsync({
        ...narrowed,
        $where(this: Plain) {
          return consider(this);
        },
      });
    }
    const ordered = options.sort ? sortDocuments(hits, options.sort) : hits;
    return ordered.slice(skip, limit === undefined ? undefined : skip + limit);
  }

  /**
   * Conditions nedb can answer from one of its indexes and that never reject a document MongoDB
   * would accept (plain equality and `$in` on scalars, ranges on numbers and dates).
   */
  private candidateQuery(filter: Filter): Plain {
    const query: Plain = {};
    for (const [key, cond] of Object.entries(filter)) {
      if (!this.indexedFields.has(key)) continue;
      if (isScalar(cond)) query[key] = cond;
      else if (isOperatorObject(cond)) {
        const ops = Object.entries(cond);
        if (ops.length === 1 && ops[0]![0] === '$in' && Array.isArray(cond.$in) && cond.$in.every(isScalar)) {
          query[key] = { $in: cond.$in };
        } else if (
          ops.every(([op, v]) => ['$gt', '$gte', '$lt', '$lte'].includes(op) && isOrderedScalar(v))
        ) {
          query[key] = cond;
        }
      }
    }
    return query;
  }

  // ---- writes ------------------------------------------------------------------------------

  /** Inserts in order and stops at the first failure, like MongoDB's ordered insertMany. */
  async insert(docs: Plain[]): Promise<Plain[]> {
    const prepared = docs.map((doc) => {
      const stored = cloneValue(doc) as Plain;
      if (stored._id === undefined) stored._id = newDocumentId();
      if (Array.isArray(stored._id)) throw new TypeError('_id cannot be an array');
      return stored;
    });
    return this.write(async () => {
      for (const stored of prepared) setIndexKeys(stored, this.uniqueSpecs);
      // nedb inserts a batch all or nothing (one append to the file); when it refuses, going one by
      // one gives MongoDB's ordered result: everything before the first duplicate is kept.
      const batched =
        prepared.length > 1 &&
        (await this.db.insertAsync(prepared).then(
          () => true,
          () => false,
        ));
      if (!batched) {
        for (const stored of prepared) await this.nedbWrite(stored, () => this.db.insertAsync(stored));
      }
      return prepared.map(visibleCopy);
    });
  }

  async update(filter: Filter, update: Update, upsert: boolean, many: boolean): Promise<UpdateResult> {
    const m = await this.modify(filter, update, { upsert, one: !many });
    return {
      matchedCount: m.matched,
      modifiedCount: m.modified,
      ...(m.upsertedId === undefined ? {} : { upsertedId: m.upsertedId as string | number }),
    };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions,
  ): Promise<Plain | null> {
    const m = await this.modify(filter, update, {
      upsert: options.upsert ?? false,
      one: true,
      sort: options.sort,
    });
    const doc = options.returnDocument === 'before' ? m.before : m.after;
    return doc ? project(doc, options.projection) : null;
  }

  private modify(
    filter: Filter,
    update: Update,
    options: { upsert: boolean; one: boolean; sort?: Sort },
  ): Promise<Modification> {
    assertDefinedFilter(filter);
    assertUpdate(update);
    return this.write(async () => {
      const targets = await this.select(filter, { sort: options.sort, limit: options.one ? 1 : undefined });
      if (targets.length === 0)
        return options.upsert ? this.upsert(filter, update) : { matched: 0, modified: 0 };
      const result: Modification = { matched: targets.length, modified: 0 };
      for (const target of targets) {
        const before = visibleCopy(target);
        const next = visibleCopy(target);
        applyUpdate(next, update, false);
        result.before ??= before;
        result.after = next;
        // MongoDB counts a document as modified only when the update changed it.
        if (valuesEqual(next, before)) continue;
        setIndexKeys(next, this.uniqueSpecs);
        await this.nedbWrite(next, () => this.db.updateAsync({ _id: next._id }, next, {}));
        result.after = visibleCopy(next);
        result.modified += 1;
      }
      return result;
    });
  }

  private async upsert(filter: Filter, update: Update): Promise<Modification> {
    const doc = upsertSeed(filter);
    applyUpdate(doc, update, true);
    if (doc._id === undefined) doc._id = newDocumentId();
    setIndexKeys(doc, this.uniqueSpecs);
    await this.nedbWrite(doc, () => this.db.insertAsync(doc));
    return { matched: 0, modified: 0, upsertedId: doc._id, after: visibleCopy(doc) };
  }

  async delete(filter: Filter, many: boolean): Promise<number> {
    assertDefinedFilter(filter);
    return this.write(async () => {
      const targets = await this.select(filter, { limit: many ? undefined : 1 });
      if (targets.length === 0) return 0;
      return this.db.removeAsync({ _id: { $in: targets.map((t) => t._id) } }, { multi: true });
    });
  }

  // ---- indexes and housekeeping ------------------------------------------------------------

  createIndex(spec: IndexSpec): Promise<void> {
    return this.write(async () => {
      const existing = this.specs.find((s) => s.name === spec.name);
      if (existing) {
        if (sameIndex(existing, spec)) return;
        throw new Error(`index ${spec.name} on ${this.name} already exists with different options`);
      }
      const twin = this.specs.find((s) => JSON.stringify(s.fields) === JSON.stringify(spec.fields));
      if (twin) throw new Error(`index ${twin.name} on ${this.name} already has the fields of ${spec.name}`);
      const hidden = hiddenField(spec);
      if (this.uniqueSpecs.some((s) => hiddenField(s) === hidden)) {
        throw new Error(`index name ${spec.name} is too close to another one on ${this.name}`);
      }
      if (spec.unique) await this.addKeysToExistingDocuments(spec);
      await this.ensureNedbIndexes(spec);
      this.specs.push(spec);
      // Saved last: after a crash before this point, the service's next createIndex redoes it all.
      await this.catalog.save(this.name, spec);
    });
  }

  /** Checks existing documents for duplicates first, so a refused index leaves nothing half-written. */
  private async addKeysToExistingDocuments(spec: IndexSpec): Promise<void> {
    const owners = new Map<string, unknown>();
    const docs = this.db.getAllData();
    for (const doc of docs) {
      for (const key of uniqueKeys(doc, spec) ?? []) {
        if (owners.has(key) && owners.get(key) !== doc._id) throw new DuplicateKeyError(this.name, spec.name);
        owners.set(key, doc._id);
      }
    }
    for (const doc of docs) {
      const next = visibleCopy(doc);
      setIndexKeys(next, [...this.uniqueSpecs, spec]);
      await this.db.updateAsync({ _id: next._id }, next, {});
    }
  }

  private async ensureNedbIndexes(spec: IndexSpec): Promise<void> {
    const first = spec.fields[0]![0];
    await this.db.ensureIndexAsync({ fieldName: first });
    this.indexedFields.add(first);
    if (spec.unique)
      await this.db.ensureIndexAsync({ fieldName: hiddenField(spec), unique: true, sparse: true });
  }

  /** Removes documents past their TTL (reads already ignore them; this frees the space). */
  sweepExpired(now = Date.now()): Promise<number> {
    if (this.ttlSpecs.length === 0) return Promise.resolve(0);
    return this.writes.run(async () => {
      await this.ready;
      return this.purgeExpired(now);
    });
  }

  /** Call only from inside the write queue. */
  private async purgeExpired(now: number): Promise<number> {
    const ttl = this.ttlSpecs;
    if (ttl.length === 0) return 0;
    const ids = this.db
      .getAllData()
      .filter((d) => isExpired(d, ttl, now))
      .map((d) => d._id);
    if (ids.length === 0) return 0;
    this.dirty = true;
    return this.db.removeAsync({ _id: { $in: ids } }, { multi: true });
  }

  /** Rewrites the append-only data file without its superseded lines. */
  async compact(): Promise<void> {
    if (!this.filename) return;
    await this.writes.run(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      await this.db.compactDatafileAsync();
    });
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.writes.drain();
    await this.compact();
  }

  private write<T>(task: () => Promise<T>): Promise<T> {
    return this.writes.run(async () => {
      await this.ready;
      this.dirty = true;
      return task();
    });
  }

  /**
   * Runs a nedb write (from inside the write queue) and turns its unique-constraint error into
   * DuplicateKeyError naming the index.
   */
  private async nedbWrite<T>(doc: Plain, run: () => Promise<T>, retried = false): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if ((err as { errorType?: unknown }).errorType !== 'uniqueViolated') throw err;
      // An expired document no read returns any more may still hold the key until the next sweep:
      // free it now rather than refuse a write that looks valid to the caller.
      if (!retried && (await this.purgeExpired(Date.now())) > 0) return this.nedbWrite(doc, run, true);
      const key = (err as { key?: unknown }).key;
      const spec = this.uniqueSpecs.find((s) => {
        const keys = doc[hiddenField(s)];
        return Array.isArray(keys) && keys.includes(key);
      });
      throw new DuplicateKeyError(this.name, spec ? spec.name : '_id_', err);
    }
  }
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date;
}

function isOrderedScalar(v: unknown): boolean {
  return typeof v === 'number' || v instanceof Date;
}
