// One embedded collection: nedb's in-memory indexes and data file, plus the MongoDB semantics nedb
// lacks. Writes go through a per-collection queue, so "find, then modify what was found" is atomic;
// modified documents are computed here (update.ts) and swapped into nedb's indexes directly, so the
// unique indexes see the result, and each operation's changed lines are appended to the data file in
// one group-committed, fsynced write (embedded-durable.ts) that the caller awaits before the result.
// Indexes, their keys and why: embedded-indexes.ts and docs/adr/0008-embedded-store-durability.md.
import { assertDefinedFilter, newDocumentId, type Plain, DuplicateKeyError } from '@murmur/store';
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Datastore } from './nedb.js';
import type { Filter, FindOneAndUpdateOptions, FindOptions, Sort, Update, UpdateResult } from '@murmur/store';
import { compileFilter } from './filter.js';
import { project, projector, sortDocuments } from './query.js';
import { SerialQueue } from './serial.js';
import { applyUpdate, assertUpdate, upsertSeed } from './update.js';
import {
  clearIndexKeys,
  hiddenField,
  indexKeys,
  isExpired,
  sameIndex,
  setIndexKeys,
  visibleCopy,
  type IndexCatalog,
  type IndexSpec,
} from './embedded-indexes.js';
import { GroupCommitFile, makeDurable, nedbModel, type DurabilityOptions } from './embedded-durable.js';
import { HIGH, encodeComponent } from './embedded-keys.js';
import { equalityValues, planIndex, type Bounds } from './embedded-plan.js';
import { cloneValue, valuesEqual } from './values.js';

/** Documents removed per turn of the event loop by large deletes and sweeps. */
export const SWEEP_BATCH = 500;
/** Candidates a large update or delete examines per turn of the event loop. */
const SCAN_BATCH = 1_000;

interface SelectOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

interface Modification {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  before?: Plain;
  after?: Plain;
}

/** nedb's Index (lib/indexes.js): the parts used here. */
interface NedbIndex {
  insert(doc: Plain | Plain[]): void;
  getMatching(value: unknown): Plain[];
  /** The AVL tree (@seald-io/binary-search-tree): `tree.tree` is its root node. */
  tree: { tree: TreeNode };
}

interface TreeNode {
  key?: string;
  data: Plain[];
  left: TreeNode | null;
  right: TreeNode | null;
}

type NedbIndexClass = new (options: { fieldName: string; unique?: boolean; sparse?: boolean }) => NedbIndex;
const NedbIndex = createRequire(import.meta.url)('@seald-io/nedb/lib/indexes.js') as NedbIndexClass;

/** nedb's Datastore internals used to change its in-memory state without its executor. */
interface NedbInternals {
  indexes: Record<string, NedbIndex>;
  _insertInCache(doc: Plain | Plain[]): void;
  _updateIndexes(oldDoc: Plain, newDoc: Plain): void;
  _removeFromIndexes(doc: Plain): void;
  persistence: { persistNewStateAsync(docs: Plain[]): Promise<void> };
}

/** Candidate documents for a filter, from one index. */
interface Plan {
  docs: Iterable<Plain>;
  /** The candidates come in the order the query's sort asks for. */
  ordered: boolean;
}

type Persist = (docs: Plain[]) => void;

export class EmbeddedCollectionCore {
  readonly ready: Promise<void>;
  /** Writes are acknowledged once applied, without waiting for their fsync (CollectionOptions). */
  relaxed = false;
  private readonly db: Datastore<Plain>;
  private readonly nedb: NedbInternals;
  private readonly file: GroupCommitFile | undefined;
  private readonly writes = new SerialQueue();
  private specs: IndexSpec[] = [];
  /**
   * Indexes where some document ever had several keys (an array field). As in MongoDB, the flag is
   * never cleared; their key order is not sort order (an array sorts by its smallest element
   * overall, which may lie outside the walked range), so they narrow but never presort.
   */
  private readonly multikey = new Set<string>();
  /** Written to since the data file was last compacted. */
  private dirty = false;

  constructor(
    readonly name: string,
    private readonly filename: string | undefined,
    private readonly catalog: IndexCatalog,
    durability: DurabilityOptions = { fsync: true },
  ) {
    this.db = new Datastore<Plain>(filename ? { filename } : { inMemoryOnly: true });
    this.nedb = this.db as unknown as NedbInternals;
    if (filename) {
      this.file = new GroupCommitFile(filename, durability);
      makeDurable(this.db, this.file);
    }
    this.ready = this.load();
    // A failed load is reported by every operation that awaits `ready`; this only avoids an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private async load(): Promise<void> {
    if (this.filename) await this.db.loadDatabaseAsync();
    // Index keys on disk may come from an older version: recompute them all, then index them.
    const specs = await this.catalog.load(this.name);
    const docs = this.db.getAllData();
    for (const doc of docs) {
      clearIndexKeys(doc);
      this.setKeys(doc, specs);
    }
    for (const spec of specs) this.buildIndex(spec, docs);
    this.specs = specs;
  }

  /** Sets a document's hidden index keys, noting indexes that become multikey. */
  private setKeys(doc: Plain, specs: IndexSpec[]): void {
    setIndexKeys(doc, specs);
    for (const spec of specs) {
      const keys = doc[hiddenField(spec)];
      if (Array.isArray(keys) && keys.length > 1) this.multikey.add(spec.name);
    }
  }

  private buildIndex(spec: IndexSpec, docs: Plain[]): void {
    const index = new NedbIndex({ fieldName: hiddenField(spec), unique: spec.unique, sparse: true });
    index.insert(docs);
    this.nedb.indexes[hiddenField(spec)] = index;
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
    await this.ready;
    const shape = projector(options.projection);
    return this.select(filter, options).map((d) => shape(visibleCopy(d)));
  }

  async count(filter: Filter): Promise<number> {
    assertDefinedFilter(filter);
    await this.ready;
    return this.select(filter, {}).length;
  }

  /**
   * The stored documents (not copies: never mutate them) that match, in order: the candidates one
   * index gives for the filter (embedded-keys.ts), or every document when no index helps, each
   * checked against the whole filter.
   */
  private select(filter: Filter, options: SelectOptions): Plain[] {
    const scan = this.scan(filter, options);
    let step = scan.next();
    while (!step.done) step = scan.next();
    return step.value;
  }

  /** As select, but with a turn of the event loop every SCAN_BATCH candidates: for large writes. */
  private async selectInTurns(filter: Filter, options: SelectOptions): Promise<Plain[]> {
    const scan = this.scan(filter, options);
    let step = scan.next();
    while (!step.done) {
      await nextTurn();
      step = scan.next();
    }
    return step.value;
  }

  private *scan(filter: Filter, options: SelectOptions): Generator<void, Plain[], void> {
    const test = compileFilter(filter);
    const now = Date.now();
    const ttl = this.ttlSpecs;
    const skip = Math.max(0, options.skip ?? 0);
    const limit = options.limit && options.limit > 0 ? options.limit : undefined;
    const plan = this.plan(filter, options.sort);
    const presorted = !options.sort || plan?.ordered === true;
    const wanted = !presorted || limit === undefined ? Infinity : skip + limit;
    const hits: Plain[] = [];
    let seen = 0;
    // Without a plan, every document, walked lazily through the `_id` index (a limit stops early).
    for (const doc of plan ? plan.docs : inRange(this.nedb.indexes._id!.tree.tree, {}, false)) {
      if (hits.length >= wanted) break;
      if (++seen % SCAN_BATCH === 0) yield;
      if ((ttl.length === 0 || !isExpired(doc, ttl, now)) && test(doc)) {
        hits.push(doc);
      }
    }
    const ordered = options.sort && !presorted ? sortDocuments(hits, options.sort) : hits;
    return ordered.slice(skip, limit === undefined ? undefined : skip + limit);
  }

  /**
   * The best index for a filter: `_id` equality, else the index with the most leading fields fixed by
   * equality (or `$in`), then a range on the next one. Only conditions that never reject a document
   * MongoDB would accept narrow the candidates; the filter itself decides.
   */
  private plan(filter: Filter, sort: Sort | undefined): Plan | undefined {
    const ids = equalityValues(filter._id);
    if (ids) {
      const index = this.nedb.indexes._id!;
      return {
        docs: unique(ids.flatMap((id) => (id === null ? [] : index.getMatching(id)))),
        ordered: false,
      };
    }
    const best = planIndex(this.specs, filter, sort, (name) => this.multikey.has(name));
    if (!best) return undefined;
    const root = this.nedb.indexes[hiddenField(best.spec)]!.tree.tree;
    // Descending: walking the keys backwards meets each document at its largest value first, as
    // MongoDB sorts arrays descending.
    const reverse = best.ordered && sort !== undefined && Object.values(sort)[0] === -1;
    return { docs: distinct(best.bounds, (b) => inRange(root, b, reverse)), ordered: best.ordered };
  }

  // ---- writes ------------------------------------------------------------------------------

  /** Inserts in order and stops at the first failure, like MongoDB's ordered insertMany. */
  async insert(docs: Plain[]): Promise<Plain[]> {
    const prepared = docs.map((doc) => {
      const stored = cloneValue(doc) as Plain;
      if (stored._id === undefined) stored._id = newDocumentId();
      if (Array.isArray(stored._id)) throw new TypeError('_id cannot be an array');
      nedbModel.checkObject(stored);
      return stored;
    });
    return this.write((persist) => {
      for (const stored of prepared) this.setKeys(stored, this.specs);
      // All at once when nothing collides (nedb rolls a refused batch back); else one by one, which
      // gives MongoDB's ordered result: everything before the first duplicate is kept.
      try {
        this.nedb._insertInCache(prepared);
        persist(prepared);
      } catch {
        const done: Plain[] = [];
        try {
          for (const stored of prepared) {
            this.cacheWrite(stored, () => this.nedb._insertInCache(stored));
            done.push(stored);
          }
        } finally {
          persist(done);
        }
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
    return this.write(async (persist) => {
      const targets = options.one
        ? this.select(filter, { sort: options.sort, limit: 1 })
        : await this.selectInTurns(filter, { sort: options.sort });
      if (targets.length === 0)
        return options.upsert ? this.upsert(filter, update, persist) : { matched: 0, modified: 0 };
      const result: Modification = { matched: targets.length, modified: 0 };
      const changed: Plain[] = [];
      try {
        for (const target of targets) {
          const before = visibleCopy(target);
          const next = visibleCopy(target);
          applyUpdate(next, update, false);
          result.before ??= before;
          result.after = next;
          // MongoDB counts a document as modified only when the update changed it.
          if (valuesEqual(next, before)) continue;
          nedbModel.checkObject(next);
          this.setKeys(next, this.specs);
          this.cacheWrite(next, () => this.nedb._updateIndexes(target, next));
          changed.push(next);
          result.after = visibleCopy(next);
          result.modified += 1;
        }
      } finally {
        persist(changed);
      }
      return result;
    });
  }

  private upsert(filter: Filter, update: Update, persist: Persist): Modification {
    const doc = upsertSeed(filter);
    applyUpdate(doc, update, true);
    if (doc._id === undefined) doc._id = newDocumentId();
    nedbModel.checkObject(doc);
    this.setKeys(doc, this.specs);
    this.cacheWrite(doc, () => this.nedb._insertInCache(doc));
    persist([doc]);
    return { matched: 0, modified: 0, upsertedId: doc._id, after: visibleCopy(doc) };
  }

  async delete(filter: Filter, many: boolean): Promise<number> {
    assertDefinedFilter(filter);
    return this.write(async (persist) => {
      const targets = many ? await this.selectInTurns(filter, {}) : this.select(filter, { limit: 1 });
      // In batches, yielding between them: a large delete must not stall every other request. The
      // write queue is held throughout, so no other write sees (or changes) the documents meanwhile.
      for (let i = 0; i < targets.length; i += SWEEP_BATCH) {
        if (i > 0) await nextTurn();
        this.removeNow(targets.slice(i, i + SWEEP_BATCH), persist);
      }
      return targets.length;
    });
  }

  private removeNow(docs: Plain[], persist: Persist): void {
    for (const doc of docs) this.nedb._removeFromIndexes(doc);
    persist(docs.map((doc) => ({ $$deleted: true, _id: doc._id })));
  }

  // ---- indexes and housekeeping ------------------------------------------------------------

  /**
   * Idempotent. An index of the same name or fields with other options replaces the old one (as the
   * MongoDB adapter does), so a service can change its index options across an upgrade.
   */
  createIndex(spec: IndexSpec): Promise<void> {
    return this.write(async () => {
      const sameFields = (s: IndexSpec) => JSON.stringify(s.fields) === JSON.stringify(spec.fields);
      const existing = this.specs.filter((s) => s.name === spec.name || sameFields(s));
      if (existing.length === 1 && sameIndex(existing[0]!, spec)) return;
      const hidden = hiddenField(spec);
      if (this.specs.some((s) => !existing.includes(s) && hiddenField(s) === hidden)) {
        throw new Error(`index name ${spec.name} is too close to another one on ${this.name}`);
      }
      const docs = this.db.getAllData();
      // Built aside first: a unique index that existing documents break is refused with nothing changed.
      const index = new NedbIndex({ fieldName: hidden, unique: spec.unique, sparse: true });
      const keyed = docs.map((doc) => ({ [hidden]: indexKeys(doc, spec), doc }));
      try {
        index.insert(keyed);
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateKeyError(this.name, spec.name, err);
        throw err;
      }
      for (const old of existing) await this.dropIndex(old);
      this.multikey.delete(spec.name);
      for (const doc of docs) this.setKeys(doc, [spec]);
      this.buildIndex(spec, docs);
      this.specs.push(spec);
      // Saved last: after a crash before this point, the service's next createIndex redoes it all.
      await this.catalog.save(this.name, spec);
    });
  }

  private async dropIndex(spec: IndexSpec): Promise<void> {
    const hidden = hiddenField(spec);
    delete this.nedb.indexes[hidden];
    for (const doc of this.db.getAllData()) delete doc[hidden];
    this.specs = this.specs.filter((s) => s !== spec);
    await this.catalog.remove(this.name, spec.name);
  }

  /**
   * Removes documents past their TTL (reads already ignore them; this frees the space), found
   * through the TTL index and removed in batches, each its own write, with the event loop free
   * in between.
   */
  async sweepExpired(now = Date.now()): Promise<number> {
    await this.ready;
    const expired = this.expiredDocs(now);
    let removed = 0;
    for (let i = 0; i < expired.length; i += SWEEP_BATCH) {
      if (i > 0) await nextTurn();
      removed += await this.write((persist) => {
        // Still stored as found (not replaced by an update meanwhile) and still expired.
        const batch = expired
          .slice(i, i + SWEEP_BATCH)
          .filter(
            (d) => this.nedb.indexes._id!.getMatching(d._id)[0] === d && isExpired(d, this.ttlSpecs, now),
          );
        this.removeNow(batch, persist);
        return batch.length;
      });
    }
    return removed;
  }

  private expiredDocs(now: number): Plain[] {
    const ttl = this.ttlSpecs;
    const found = distinct(ttl, (spec) => {
      const cutoff = encodeComponent(new Date(now - spec.expireAfterSeconds! * 1000));
      const index = this.nedb.indexes[hiddenField(spec)];
      return index ? inRange(index.tree.tree, { $gte: cutoff[0]!, $lt: cutoff + HIGH }, false) : [];
    });
    return [...found].filter((d) => isExpired(d, ttl, now));
  }

  /** Rewrites the append-only data file without its superseded lines. */
  async compact(): Promise<void> {
    if (!this.filename) return;
    await this.writes.run(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      await this.file!.drain();
      await this.db.compactDatafileAsync();
    });
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.writes.drain();
    await this.compact();
    await this.file?.drain();
  }

  /**
   * Runs a write in the queue. What it persists is appended (group-committed) after the in-memory
   * change, and the caller gets the result only once that is on disk; the queue itself moves on at
   * once, so concurrent writes share one fsync.
   */
  private async write<T>(task: (persist: Persist) => T | Promise<T>): Promise<T> {
    const durable: Promise<void>[] = [];
    const persist: Persist = (docs) => {
      if (!this.file || docs.length === 0) return;
      const appended = this.nedb.persistence.persistNewStateAsync(docs);
      appended.catch(() => undefined);
      durable.push(appended);
    };
    try {
      return await this.writes.run(async () => {
        await this.ready;
        this.dirty = true;
        return task(persist);
      });
    } finally {
      // A relaxed collection's appends go out with the group commit without being waited for.
      if (!this.relaxed) await Promise.all(durable);
    }
  }

  /**
   * Applies an in-memory change (from inside the write queue), turning nedb's unique-constraint
   * error into DuplicateKeyError naming the index.
   */
  private cacheWrite(doc: Plain, apply: () => void): void {
    let failure: unknown;
    try {
      apply();
      return;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      failure = err;
    }
    // An expired document no read returns any more may still hold the key until the next sweep:
    // free it now rather than refuse a write that looks valid to the caller.
    const expired = this.expiredDocs(Date.now());
    if (expired.length > 0) {
      for (const d of expired) this.nedb._removeFromIndexes(d);
      void this.nedb.persistence
        .persistNewStateAsync(expired.map((d) => ({ $$deleted: true, _id: d._id })))
        .catch(() => undefined);
      try {
        apply();
        return;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        failure = err;
      }
    }
    const key = (failure as { key?: unknown }).key;
    const spec = this.uniqueSpecs.find((s) => {
      const keys = doc[hiddenField(s)];
      return Array.isArray(keys) && keys.includes(key);
    });
    throw new DuplicateKeyError(this.name, spec ? spec.name : '_id_', failure);
  }
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { errorType?: unknown } | null)?.errorType === 'uniqueViolated';
}

/**
 * The documents under the keys within `bounds`, in key order (or reverse), walked lazily so that a
 * query with a limit stops early. The tree must not change while the walk is under way: callers
 * finish it synchronously, or inside the write queue.
 */
function* inRange(root: TreeNode, bounds: Bounds, reverse: boolean): Generator<Plain> {
  const { $gt, $gte, $lt, $lte } = bounds;
  const aboveLow = (k: string) => ($gt !== undefined ? k > $gt : $gte !== undefined ? k >= $gte : true);
  const belowHigh = (k: string) => ($lt !== undefined ? k < $lt : $lte !== undefined ? k <= $lte : true);
  const stack: TreeNode[] = [];
  let node: TreeNode | null | undefined = Object.hasOwn(root, 'key') ? root : null;
  while (node || stack.length > 0) {
    // Down to the first key within the near bound, remembering the way back up.
    while (node) {
      if (reverse ? belowHigh(node.key!) : aboveLow(node.key!)) {
        stack.push(node);
        node = reverse ? node.right : node.left;
      } else {
        node = reverse ? node.left : node.right;
      }
    }
    if (stack.length === 0) return;
    node = stack.pop()!;
    if (!(reverse ? aboveLow(node.key!) : belowHigh(node.key!))) return;
    yield* node.data;
    node = reverse ? node.left : node.right;
  }
}

/** Each document once (one with an array field has several keys), in first-seen order. */
function* distinct<T>(sources: T[], walk: (source: T) => Iterable<Plain>): Generator<Plain> {
  const seen = new Set<Plain>();
  for (const source of sources) {
    for (const doc of walk(source)) {
      if (seen.has(doc)) continue;
      seen.add(doc);
      yield doc;
    }
  }
}

function unique(docs: Plain[]): Plain[] {
  return docs.length < 2 ? docs : [...new Set(docs)];
}
