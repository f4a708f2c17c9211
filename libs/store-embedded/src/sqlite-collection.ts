// One collection of the SQLite embedded engine (docs/adr/0017-embedded-store-sqlite.md). Documents are
// rows `(rid, id, doc)`: `id` is the typed `_id` key (embedded-keys.ts) under a unique index, `doc`
// the document as JSON (dates as `{$$date}`, the text the nedb engine of earlier versions wrote too).
// Every declared index is a table of `(key, rid)` holding order-preserving keys (missing counts as
// null, one key per array element combination, sparse skips, non-unique keys end with the `_id`),
// with the key as primary key: a unique index refuses a second document with the same key, and a
// filter that an index can narrow becomes a key-range query in SQL (embedded-plan.ts). Everything
// else — the filter itself, sorts, projections, update operators — is JavaScript with MongoDB's
// meaning (filter.ts, query.ts, update.ts), which the store contract suite checks on both adapters.
//
// Each write runs synchronously inside one savepoint of the turn's SQLite transaction (one turn of
// the event loop, so "find, then modify" is atomic; SqliteFile.write in sqlite-file.ts), then awaits
// the turn's commit and, unless the collection is relaxed, the group-committed fsync before the caller
// gets its result. Large deletes, updates and sweeps work in batches of savepoints, with a turn of the
// event loop (and so a commit) in between, holding the collection's write queue throughout.
import { assertDefinedFilter, newDocumentId, type Plain, DuplicateKeyError } from '@murmur/store';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Filter, FindOneAndUpdateOptions, FindOptions, Sort, Update, UpdateResult } from '@murmur/store';
import { compileFilter } from './filter.js';
import { project, projector, sortDocuments } from './query.js';
import { SerialQueue } from './serial.js';
import { applyUpdate, assertUpdate, upsertSeed } from './update.js';
import { indexKeys, isExpired, sameIndex, type IndexSpec } from './embedded-indexes.js';
import { HIGH, encodeComponent } from './embedded-keys.js';
import { equalityValues, planIndex, type Bounds } from './embedded-plan.js';
import { checkFieldNames, cloneValue, valuesEqual } from './values.js';
import type { SqliteFile } from './sqlite-file.js';

/** Documents removed or updated per transaction (and turn of the event loop) by large writes and sweeps. */
const WRITE_BATCH = 200;
/** Candidates a large update or delete examines per turn of the event loop. */
const SCAN_BATCH = 1_000;

interface Row {
  rid: number;
  doc: Plain;
}

interface RawRow {
  rid: number;
  doc: string;
}

interface Index {
  id: number;
  spec: IndexSpec;
  table: string;
  multikey: boolean;
}

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

/** A key string as a BLOB whose byte order (SQLite compares BLOBs with memcmp) is the string's code-unit order. */
export function keyBlob(key: string): Buffer {
  return Buffer.from(key, 'utf16le').swap16();
}

/** Documents read from a collection's table to answer a query, per collection name (documentsExamined). */
const examined = new Map<string, number>();

/**
 * How many documents queries of collections named `collection` have read in this process, in every
 * SQLite-backed store: each candidate an index range or a scan yields counts once, matched or not. Tests
 * read it before and after a query to tell an index walk (the page and little more) from a scan.
 */
export function documentsExamined(collection: string): number {
  return examined.get(collection) ?? 0;
}

function countExamined(collection: string, n: number): void {
  if (n > 0) examined.set(collection, (examined.get(collection) ?? 0) + n);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const parse = (raw: RawRow): Row => ({ rid: raw.rid, doc: decodeDoc(raw.doc) });

/**
 * A document as JSON, dates as `{"$$date": ms}` (field names starting with `$` are refused before
 * storing, values.ts checkFieldNames, so the marker cannot be a document's own field). A plain walk
 * and JSON.stringify: 1.6× faster than a replacer-based serializer.
 */
export function encodeDoc(doc: Plain): string {
  return JSON.stringify(jsonValue(doc));
}

function jsonValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Date) return { $$date: v.getTime() };
  if (Array.isArray(v)) return v.map(jsonValue);
  const out: Plain = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = jsonValue(x);
  return out;
}

/** The inverse of encodeDoc: JSON.parse, then dates revived in place (3× faster than a reviver). */
export function decodeDoc(text: string): Plain {
  return revive(JSON.parse(text)) as Plain;
}

function revive(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revive(v[i]);
    return v;
  }
  const o = v as Plain;
  if (typeof o.$$date === 'number' && Object.keys(o).length === 1) return new Date(o.$$date);
  for (const k of Object.keys(o)) o[k] = revive(o[k]);
  return o;
}

function isConstraint(err: unknown): boolean {
  return (
    (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}

export class SqliteCollectionCore {
  readonly ready: Promise<void>;
  private readonly table: string;
  private readonly writes = new SerialQueue();
  private indexes: Index[] = [];
  /** Writes are acknowledged once committed, without waiting for the WAL's fsync (CollectionOptions). */
  relaxed = false;

  constructor(
    readonly name: string,
    private readonly file: SqliteFile,
  ) {
    this.table = quote(`c:${name}`);
    this.ready = Promise.resolve().then(() => this.load());
    this.ready.catch(() => undefined);
  }

  private load(): void {
    this.file.db.exec(
      `CREATE TABLE IF NOT EXISTS ${this.table} (rid INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, doc TEXT NOT NULL)`,
    );
    this.indexes = this.file.catalog(this.name).map((e) => ({ ...e, table: quote(`x:${e.id}`) }));
  }

  private sql(text: string) {
    return this.file.stmt(text);
  }

  private get ttlSpecs(): IndexSpec[] {
    return this.indexes.map((i) => i.spec).filter((s) => s.expireAfterSeconds !== undefined);
  }

  // ---- reads -------------------------------------------------------------------------------

  async find(filter: Filter, options: FindOptions = {}): Promise<Plain[]> {
    assertDefinedFilter(filter);
    await this.ready;
    const shape = projector(options.projection);
    return this.select(filter, options, shape).map((r) => r.doc);
  }

  async count(filter: Filter): Promise<number> {
    assertDefinedFilter(filter);
    await this.ready;
    if (Object.keys(filter).length === 0 && this.ttlSpecs.length === 0) {
      return (this.sql(`SELECT count(*) AS n FROM ${this.table}`).get() as { n: number }).n;
    }
    return this.select(filter, {}).length;
  }

  /**
   * The matching rows, in order (synchronous: the statements' iterators never outlive this call), their
   * documents given `shape` (a projection). When the rows come in their final order each is shaped as
   * it matches, so a large read never holds every whole document at once; otherwise after the sort,
   * which may need fields the projection leaves out.
   */
  private select(filter: Filter, options: SelectOptions, shape?: (doc: Plain) => Plain): Row[] {
    const test = compileFilter(filter);
    const now = Date.now();
    const ttl = this.ttlSpecs;
    const skip = Math.max(0, options.skip ?? 0);
    const limit = options.limit && options.limit > 0 ? options.limit : undefined;
    const plan = this.plan(filter, options.sort);
    const presorted = !options.sort || plan?.ordered === true;
    const wanted = !presorted || limit === undefined ? Infinity : skip + limit;
    const hits: Row[] = [];
    const rows = plan
      ? plan.rows
      : (this.sql(`SELECT rid, doc FROM ${this.table} ORDER BY rid`).iterate() as Iterable<RawRow>);
    const shapeNow = presorted ? shape : undefined;
    let read = 0;
    for (const raw of rows) {
      if (hits.length >= wanted) break;
      read += 1;
      const row = parse(raw);
      if ((ttl.length === 0 || !isExpired(row.doc, ttl, now)) && test(row.doc)) {
        if (shapeNow) row.doc = shapeNow(row.doc);
        hits.push(row);
      }
    }
    countExamined(this.name, read);
    const ordered = options.sort && !presorted ? sortRows(hits, options.sort) : hits;
    const page =
      skip === 0 && limit === undefined
        ? ordered
        : ordered.slice(skip, limit === undefined ? undefined : skip + limit);
    if (shape && !shapeNow) for (const row of page) row.doc = shape(row.doc);
    return page;
  }

  /**
   * As select without sort, limit or skip, for large writes: the candidates' row ids first (the
   * index range, or every row), then their documents SCAN_BATCH at a time with a turn of the event
   * loop in between. Called inside the write queue, so no write of this collection changes them meanwhile.
   */
  private async selectInTurns(filter: Filter): Promise<Row[]> {
    const test = compileFilter(filter);
    const now = Date.now();
    const ttl = this.ttlSpecs;
    const rids = this.candidateRids(filter);
    const one = this.sql(`SELECT rid, doc FROM ${this.table} WHERE rid = ?`);
    const hits: Row[] = [];
    for (let i = 0; i < rids.length; i++) {
      if (i > 0 && i % SCAN_BATCH === 0) await nextTurn();
      const raw = one.get(rids[i]) as RawRow | undefined;
      if (!raw) continue;
      countExamined(this.name, 1);
      const row = parse(raw);
      if ((ttl.length === 0 || !isExpired(row.doc, ttl, now)) && test(row.doc)) hits.push(row);
    }
    return hits;
  }

  private candidateRids(filter: Filter): number[] {
    const ids = equalityValues(filter._id);
    if (ids) {
      const byId = this.sql(`SELECT rid FROM ${this.table} WHERE id = ?`).pluck();
      return [
        ...new Set(
          ids.flatMap((id) =>
            id === null ? [] : ((byId.all(keyBlob(encodeComponent(id))) as number[]) ?? []),
          ),
        ),
      ];
    }
    const plan = planIndex(
      this.indexes.map((i) => i.spec),
      filter,
      undefined,
      () => true,
    );
    if (!plan) return this.sql(`SELECT rid FROM ${this.table} ORDER BY rid`).pluck().all() as number[];
    const index = this.indexes.find((i) => i.spec === plan.spec)!;
    const rids = new Set<number>();
    for (const bounds of plan.bounds) {
      const [where, params] = keyRange(bounds);
      for (const rid of this.sql(`SELECT rid FROM ${index.table} WHERE ${where}`)
        .pluck()
        .all(...params) as number[])
        rids.add(rid);
    }
    return [...rids];
  }

  /** Candidate rows from `_id` equality or the best index (embedded-plan.ts), lazily. */
  private plan(
    filter: Filter,
    sort: Sort | undefined,
  ): { rows: Iterable<RawRow>; ordered: boolean } | undefined {
    const ids = equalityValues(filter._id);
    if (ids) {
      const byId = this.sql(`SELECT rid, doc FROM ${this.table} WHERE id = ?`);
      const rows = ids.flatMap((id) =>
        id === null ? [] : ((byId.all(keyBlob(encodeComponent(id))) as RawRow[]) ?? []),
      );
      return { rows: distinctRows([rows]), ordered: false };
    }
    const plan = planIndex(
      this.indexes.map((i) => i.spec),
      filter,
      sort,
      (name) => this.indexes.find((i) => i.spec.name === name)?.multikey ?? true,
    );
    if (!plan) return undefined;
    const index = this.indexes.find((i) => i.spec === plan.spec)!;
    // CROSS JOIN keeps the key table as the outer loop whatever statistics SQLite gathers: the walk in
    // key order is what lets a sorted query with a limit stop at its first hits.
    const sources = plan.bounds.map((bounds) => {
      const [where, params] = keyRange(bounds, 'x.');
      return {
        [Symbol.iterator]: () =>
          this.sql(
            `SELECT c.rid AS rid, c.doc AS doc FROM ${index.table} x CROSS JOIN ${this.table} c ON c.rid = x.rid ` +
              `WHERE ${where} ORDER BY x.key ${plan.reverse ? 'DESC' : 'ASC'}`,
          ).iterate(...params) as IterableIterator<RawRow>,
      };
    });
    return { rows: distinctRows(sources), ordered: plan.ordered };
  }

  // ---- writes ------------------------------------------------------------------------------

  /** Inserts in order and stops at the first failure, like MongoDB's ordered insertMany. */
  async insert(docs: Plain[]): Promise<Plain[]> {
    const prepared = docs.map((doc) => {
      const stored = cloneValue(doc) as Plain;
      if (stored._id === undefined) stored._id = newDocumentId();
      if (Array.isArray(stored._id)) throw new TypeError('_id cannot be an array');
      checkFieldNames(stored);
      return stored;
    });
    return this.write(() => {
      if (prepared.length === 1) {
        // One document: the write's own savepoint (SqliteFile.write) undoes it alone if it fails.
        this.transaction(() => this.insertRow(prepared[0]!));
        return prepared;
      }
      let failure: unknown;
      this.transaction(() => {
        for (const doc of prepared) {
          try {
            this.savepoint(() => this.insertRow(doc));
          } catch (err) {
            failure = err;
            return;
          }
        }
      });
      if (failure !== undefined) throw failure;
      return prepared;
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
      // One document: found and changed in the same synchronous transaction.
      const targets = options.one
        ? this.select(filter, { sort: options.sort, limit: 1 })
        : await this.selectInTurns(filter);
      if (targets.length === 0) {
        if (!options.upsert) return { matched: 0, modified: 0 };
        const doc = upsertSeed(filter);
        applyUpdate(doc, update, true);
        if (doc._id === undefined) doc._id = newDocumentId();
        checkFieldNames(doc);
        this.transaction(() => this.insertRow(doc));
        return { matched: 0, modified: 0, upsertedId: doc._id, after: cloneValue(doc) as Plain };
      }
      const result: Modification = { matched: targets.length, modified: 0 };
      for (let i = 0; i < targets.length; i += WRITE_BATCH) {
        if (i > 0) await nextTurn();
        let failure: unknown;
        this.transaction(() => {
          for (const target of targets.slice(i, i + WRITE_BATCH)) {
            const before = target.doc;
            const next = cloneValue(before) as Plain;
            applyUpdate(next, update, false);
            result.before ??= before;
            result.after = next;
            // MongoDB counts a document as modified only when the update changed it.
            if (valuesEqual(next, before)) continue;
            try {
              checkFieldNames(next);
              this.savepoint(() => this.replaceRow(target, next));
            } catch (err) {
              failure = err;
              return;
            }
            result.after = cloneValue(next) as Plain;
            result.modified += 1;
          }
        });
        if (failure !== undefined) throw failure;
      }
      return result;
    });
  }

  async delete(filter: Filter, many: boolean): Promise<number> {
    assertDefinedFilter(filter);
    return this.write(async () => {
      const targets = many ? await this.selectInTurns(filter) : this.select(filter, { limit: 1 });
      for (let i = 0; i < targets.length; i += WRITE_BATCH) {
        if (i > 0) await nextTurn();
        this.transaction(() => {
          for (const row of targets.slice(i, i + WRITE_BATCH)) this.removeRow(row);
        });
      }
      return targets.length;
    });
  }

  // ---- rows and index keys (inside a transaction) -------------------------------------------

  private keysOf(doc: Plain, index: Index): Buffer[] {
    const keys = indexKeys(doc, index.spec);
    if (!keys) return [];
    if (keys.length > 1 && !index.multikey) {
      index.multikey = true;
      this.file.markMultikey(index.id);
    }
    return keys.map(keyBlob);
  }

  private insertRow(doc: Plain): void {
    let rid: number;
    try {
      rid = Number(
        this.sql(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`).run(
          keyBlob(encodeComponent(doc._id)),
          encodeDoc(doc),
        ).lastInsertRowid,
      );
    } catch (err) {
      if (isConstraint(err)) {
        const holder = this.sql(`SELECT rid, doc FROM ${this.table} WHERE id = ?`).get(
          keyBlob(encodeComponent(doc._id)),
        ) as RawRow | undefined;
        if (holder && this.expired(parse(holder).doc)) {
          this.removeRow(parse(holder));
          return this.insertRow(doc);
        }
        throw new DuplicateKeyError(this.name, '_id_', err);
      }
      throw err;
    }
    for (const index of this.indexes) this.addKeys(index, this.keysOf(doc, index), rid);
  }

  private replaceRow(target: Row, next: Plain): void {
    for (const index of this.indexes) {
      const old = this.keysOf(target.doc, index);
      const now = this.keysOf(next, index);
      const oldSet = new Set(old.map((k) => k.toString('hex')));
      const nowSet = new Set(now.map((k) => k.toString('hex')));
      const del = this.sql(`DELETE FROM ${index.table} WHERE key = ?`);
      for (const k of old) if (!nowSet.has(k.toString('hex'))) del.run(k);
      this.addKeys(
        index,
        now.filter((k) => !oldSet.has(k.toString('hex'))),
        target.rid,
      );
    }
    this.sql(`UPDATE ${this.table} SET doc = ? WHERE rid = ?`).run(encodeDoc(next), target.rid);
  }

  private removeRow(row: Row): void {
    for (const index of this.indexes) {
      const del = this.sql(`DELETE FROM ${index.table} WHERE key = ?`);
      for (const k of this.keysOf(row.doc, index)) del.run(k);
    }
    this.sql(`DELETE FROM ${this.table} WHERE rid = ?`).run(row.rid);
  }

  /**
   * Adds keys; a key another document holds is a DuplicateKeyError naming the index, unless that
   * document has expired (reads no longer return it; the sweep has not removed it yet): it goes now.
   */
  private addKeys(index: Index, keys: Buffer[], rid: number): void {
    const add = this.sql(`INSERT INTO ${index.table} (key, rid) VALUES (?, ?)`);
    for (const key of keys) {
      try {
        add.run(key, rid);
      } catch (err) {
        if (!isConstraint(err)) throw err;
        const holderRid = this.sql(`SELECT rid FROM ${index.table} WHERE key = ?`).pluck().get(key) as number;
        const holder = this.sql(`SELECT rid, doc FROM ${this.table} WHERE rid = ?`).get(holderRid) as
          RawRow | undefined;
        if (holder && holder.rid !== rid && this.expired(parse(holder).doc)) {
          this.removeRow(parse(holder));
          add.run(key, rid);
          continue;
        }
        throw new DuplicateKeyError(this.name, index.spec.name, err);
      }
    }
  }

  private expired(doc: Plain): boolean {
    const ttl = this.ttlSpecs;
    return ttl.length > 0 && isExpired(doc, ttl, Date.now());
  }

  // ---- indexes and housekeeping ------------------------------------------------------------

  /**
   * Idempotent. An index of the same name or fields with other options replaces the old one. The new
   * index is built in the same transaction that drops the old one: a unique index that existing
   * documents break is refused with nothing changed.
   */
  createIndex(spec: IndexSpec): Promise<void> {
    return this.write(() => {
      const sameFields = (s: IndexSpec) => JSON.stringify(s.fields) === JSON.stringify(spec.fields);
      const existing = this.indexes.filter((i) => i.spec.name === spec.name || sameFields(i.spec));
      if (existing.length === 1 && sameIndex(existing[0]!.spec, spec)) return;
      let built: Index | undefined;
      this.transaction(() => {
        for (const old of existing) {
          this.file.db.exec(`DROP TABLE IF EXISTS ${old.table}`);
          this.file.removeIndex(old.id);
        }
        const id = this.file.addIndex(this.name, spec);
        const index: Index = { id, spec, table: quote(`x:${id}`), multikey: false };
        this.file.db.exec(
          `CREATE TABLE ${index.table} (key BLOB PRIMARY KEY, rid INTEGER NOT NULL) WITHOUT ROWID`,
        );
        const add = this.sql(`INSERT INTO ${index.table} (key, rid) VALUES (?, ?)`);
        const page = this.sql(`SELECT rid, doc FROM ${this.table} WHERE rid > ? ORDER BY rid LIMIT 1000`);
        let last = -Infinity;
        for (;;) {
          const rows = page.all(last) as RawRow[];
          if (rows.length === 0) break;
          for (const raw of rows) {
            const row = parse(raw);
            for (const key of this.keysOf(row.doc, index)) {
              try {
                add.run(key, row.rid);
              } catch (err) {
                if (isConstraint(err)) throw new DuplicateKeyError(this.name, spec.name, err);
                throw err;
              }
            }
          }
          last = rows[rows.length - 1]!.rid;
        }
        built = index;
      });
      this.indexes = [...this.indexes.filter((i) => !existing.includes(i)), built!];
    });
  }

  /**
   * Removes documents past their TTL (reads already ignore them), found through the TTL index, in
   * batches, each its own write, with the event loop free in between.
   */
  async sweepExpired(now = Date.now()): Promise<number> {
    await this.ready;
    const ttl = this.indexes.filter((i) => i.spec.expireAfterSeconds !== undefined);
    const rids = new Set<number>();
    for (const index of ttl) {
      const cutoff = encodeComponent(new Date(now - index.spec.expireAfterSeconds! * 1000));
      const [where, params] = keyRange({ $gte: cutoff[0]!, $lt: cutoff + HIGH });
      for (const rid of this.sql(`SELECT rid FROM ${index.table} WHERE ${where}`)
        .pluck()
        .all(...params) as number[])
        rids.add(rid);
    }
    const all = [...rids];
    let removed = 0;
    for (let i = 0; i < all.length; i += WRITE_BATCH) {
      if (i > 0) await nextTurn();
      removed += await this.write(() => {
        let n = 0;
        this.transaction(() => {
          for (const rid of all.slice(i, i + WRITE_BATCH)) {
            // Still stored, and still expired (not refreshed by an update meanwhile).
            const raw = this.sql(`SELECT rid, doc FROM ${this.table} WHERE rid = ?`).get(rid) as
              RawRow | undefined;
            if (!raw) continue;
            const row = parse(raw);
            if (!isExpired(row.doc, this.ttlSpecs, now)) continue;
            this.removeRow(row);
            n += 1;
          }
        });
        return n;
      });
    }
    return removed;
  }

  /** SQLite reuses free pages itself; nothing to rewrite. */
  async compact(): Promise<void> {}

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.writes.drain();
  }

  /** For the import of nedb files (sqlite-migrate.ts): stores index definitions and documents as they are, in the caller's transaction. */
  importSync(specs: IndexSpec[], docs: Plain[]): void {
    for (const spec of specs) {
      if (this.indexes.some((i) => i.spec.name === spec.name)) continue;
      const id = this.file.addIndex(this.name, spec);
      const index: Index = { id, spec, table: quote(`x:${id}`), multikey: false };
      this.file.db.exec(
        `CREATE TABLE ${index.table} (key BLOB PRIMARY KEY, rid INTEGER NOT NULL) WITHOUT ROWID`,
      );
      this.indexes.push(index);
    }
    for (const doc of docs) this.insertRow(doc);
  }

  /**
   * Runs a write in the collection's queue; its savepoints are released synchronously inside `task`,
   * and the caller gets the result (or the error) once the turn's transaction is committed and (unless
   * relaxed) on disk.
   */
  private async write<T>(task: () => T | Promise<T>): Promise<T> {
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = {
        ok: true,
        value: await this.writes.run(async () => {
          await this.ready;
          return task();
        }),
      };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // Even a failed write may have committed part of its work (an ordered insertMany's first documents).
    // A relaxed write waits for the turn's commit only; it is on disk with the next fsync any other
    // write waits for.
    if (this.relaxed) await this.file.committed();
    else await this.file.durable();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** A savepoint in the turn's transaction (SqliteFile.write): undone alone when `fn` throws. */
  private transaction(fn: () => void): void {
    this.file.write(fn);
  }

  /** A nested transaction: undone alone when `fn` throws. */
  private savepoint(fn: () => void): void {
    this.file.inTransaction(fn);
  }
}

/** A WHERE clause over `key` for key bounds, and its parameters. */
function keyRange(bounds: Bounds, prefix = ''): [string, Buffer[]] {
  const ops = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
  const parts: string[] = [];
  const params: Buffer[] = [];
  for (const [op, value] of Object.entries(bounds) as [keyof typeof ops, string][]) {
    parts.push(`${prefix}key ${ops[op]} ?`);
    params.push(keyBlob(value));
  }
  return [parts.length > 0 ? parts.join(' AND ') : '1', params];
}

/** Each row once (a document with an array field has several keys), in first-seen order. */
function* distinctRows(sources: Iterable<RawRow>[]): Generator<RawRow> {
  const seen = new Set<number>();
  for (const source of sources) {
    for (const row of source) {
      if (seen.has(row.rid)) continue;
      seen.add(row.rid);
      yield row;
    }
  }
}

function sortRows(rows: Row[], sort: Sort): Row[] {
  const byDoc = new Map(rows.map((r) => [r.doc, r]));
  return sortDocuments(
    rows.map((r) => r.doc),
    sort,
  ).map((d) => byDoc.get(d)!);
}
