// The store port (docs/adr/0001-store.md): a small subset of MongoDB's collection API that the `embedded`
// (SQLite) and `mongodb` adapters implement with the same meaning. The store contract suite
// (libs/store-embedded/test/) is the definition of that meaning.

/** A stored document. `_id` is a string or integer chosen by the caller, or a random string the adapter makes. */
export type Doc = { _id?: string | number } & Record<string, unknown>;
export type WithId<T extends Doc> = T & { _id: string | number };

/**
 * Filters: equality, `$in $nin $gt $gte $lt $lte $ne $exists $or $and` (also `$eq $not $nor`), dot paths,
 * array membership (`{tags: 'x'}` matches a document whose `tags` array contains 'x'). `{a: null}` matches
 * a missing `a`; comparisons stay within one type. A value `undefined` anywhere is refused (TypeError).
 */
export type Filter = Record<string, unknown>;

/**
 * Updates: `$set $unset $inc $push $addToSet $pull $min $max` (`$push`/`$addToSet` accept `{$each: [...]}`,
 * `$push` also `$slice`), and `$setOnInsert`, applied only when an upsert inserts.
 */
export type Update = Partial<
  Record<
    '$set' | '$unset' | '$inc' | '$push' | '$addToSet' | '$pull' | '$min' | '$max',
    Record<string, unknown>
  >
> & { $setOnInsert?: Record<string, unknown> };

export type Sort = Record<string, 1 | -1>;
/** Inclusion (`{a: 1}`) or exclusion (`{a: 0}`) projection; `_id` is included unless `_id: 0`. */
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface FindOneAndUpdateOptions extends UpdateOptions {
  /** Default `'after'`. */
  returnDocument?: 'before' | 'after';
  sort?: Sort;
  projection?: Projection;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  /** Set when an upsert inserted a document. */
  upsertedId?: string | number;
}

export interface DeleteResult {
  deletedCount: number;
}

export interface IndexOptions {
  /** Defaults to the field names joined by `_`. */
  name?: string;
  unique?: boolean;
  /** With unique: documents lacking every indexed field are not indexed. */
  sparse?: boolean;
  /** TTL: the (single, Date-valued) field's time plus this many seconds is when the document expires. */
  expireAfterSeconds?: number;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  insertOne(doc: T): Promise<WithId<T>>;
  insertMany(docs: T[]): Promise<WithId<T>[]>;
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<WithId<T> | null>;
  find(filter: Filter, options?: FindOptions): Promise<WithId<T>[]>;
  countDocuments(filter?: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /** Atomic: no other write to the matched document happens between the match and the update. */
  findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: FindOneAndUpdateOptions,
  ): Promise<WithId<T> | null>;
  deleteOne(filter: Filter): Promise<DeleteResult>;
  deleteMany(filter: Filter): Promise<DeleteResult>;
  /** Idempotent. Compound indexes (several fields) are supported, unique ones too. */
  createIndex(fields: Record<string, 1 | -1>, options?: IndexOptions): Promise<void>;
}

export interface CollectionOptions {
  /**
   * `durable` (default): a write is acknowledged once it is on disk. `relaxed`: once it is applied —
   * every later read sees it — without waiting for the disk's flush, so a process or machine that
   * stops abruptly can lose the last moments of it. For data whose loss is harmless
   * and whose writes are on the request path, such as rate-limit counters. Embedded store only;
   * MongoDB acknowledges by its write concern either way. A collection asked for as relaxed once is
   * relaxed for the process.
   */
  durability?: 'durable' | 'relaxed';
}

export interface Store {
  /** `embedded` or `mongodb`. */
  readonly kind: 'embedded' | 'mongodb';
  collection<T extends Doc = Doc>(name: string, options?: CollectionOptions): Collection<T>;
  /** Resolves when the store answers; rejects otherwise (used by `/readyz`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A write broke a unique index. Both adapters throw exactly this. */
export class DuplicateKeyError extends Error {
  readonly collection: string;
  readonly index: string | undefined;
  constructor(collection: string, index?: string, cause?: unknown) {
    super(
      `duplicate key in ${collection}${index ? ` (index ${index})` : ''}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'DuplicateKeyError';
    this.collection = collection;
    this.index = index;
  }
}
