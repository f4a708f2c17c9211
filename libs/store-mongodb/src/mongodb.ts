// The MongoDB store (docs/adr/0001-store.md): the official driver, passed through. The few things done here
// keep the two adapters interchangeable: string ids instead of ObjectIds, one DuplicateKeyError, the
// same default index names, and no `undefined` in filters.
import {
  defaultIndexName,
  assertDefinedFilter,
  isOperatorObject,
  isPlainObject,
  newDocumentId,
  type Plain,
  type StoreLogger,
  DuplicateKeyError,
  type CollectionOptions,
} from '@murmur/store';
import {
  MongoClient,
  type Collection as DriverCollection,
  type Db,
  type Document,
  type Filter as DriverFilter,
  type UpdateFilter,
} from 'mongodb';
import type {
  Collection,
  DeleteResult,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexOptions,
  Store,
  Update,
  UpdateOptions,
  UpdateResult,
  WithId,
} from '@murmur/store';

export interface MongoStoreOptions {
  service: string;
  /** Database name; default `murmur_<service>` unless the URL's path names one. */
  database?: string;
  /** Where to say that an index was replaced because its options changed. Default: a process warning. */
  logger?: StoreLogger;
}

const warnProcess: StoreLogger = {
  warn: (details, message) => process.emitWarning(`${message} ${JSON.stringify(details)}`),
};

/** The server refused an index because one with the same name or key exists with other options. */
const INDEX_CONFLICT_CODES = new Set([85 /* IndexOptionsConflict */, 86 /* IndexKeySpecsConflict */]);

/** The database a URL names in its path (`mongodb://host/name?…`), if any. */
export function databaseNameFromUrl(url: string): string | undefined {
  const m = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url);
  const name = m?.[1] ? decodeURIComponent(m[1]) : '';
  return name === '' ? undefined : name;
}

export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly logger: StoreLogger,
  ) {}

  static async connect(url: string, options: MongoStoreOptions): Promise<MongoStore> {
    // ignoreUndefined: a field set to `undefined` is left out, as the embedded adapter does.
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    const name = options.database ?? databaseNameFromUrl(url) ?? `murmur_${options.service}`;
    return new MongoStore(client, client.db(name), options.logger ?? warnProcess);
  }

  /** The database this store uses (for tests and tools that need to drop it). */
  get databaseName(): string {
    return this.db.databaseName;
  }

  // CollectionOptions.durability is the embedded store's: MongoDB acknowledges by its write concern.
  collection<T extends Doc = Doc>(name: string, _options?: CollectionOptions): Collection<T> {
    return new MongoCollection<T>(this.db.collection(name), this.db, this.logger);
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Drops the whole database. For tests. */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }
}

class MongoCollection<T extends Doc> implements Collection<T> {
  readonly name: string;

  constructor(
    private readonly c: DriverCollection<Document>,
    private readonly db: Db,
    private readonly logger: StoreLogger,
  ) {
    this.name = c.collectionName;
  }

  async insertOne(doc: T): Promise<WithId<T>> {
    const stored = withId(doc);
    await this.guard(() => this.c.insertOne(stored));
    return stored as WithId<T>;
  }

  async insertMany(docs: T[]): Promise<WithId<T>[]> {
    const stored = docs.map(withId);
    if (stored.length > 0) await this.guard(() => this.c.insertMany(stored, { ordered: true }));
    return stored as WithId<T>[];
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<WithId<T> | null> {
    assertDefinedFilter(filter);
    return (await this.c.findOne(driverFilter(filter), options)) as WithId<T> | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<WithId<T>[]> {
    assertDefinedFilter(filter);
    return (await this.c.find(driverFilter(filter), options).toArray()) as unknown as WithId<T>[];
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    assertDefinedFilter(filter);
    return this.c.countDocuments(driverFilter(filter));
  }

  updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update('updateOne', filter, update, options);
  }

  updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update('updateMany', filter, update, options);
  }

  private async update(
    method: 'updateOne' | 'updateMany',
    filter: Filter,
    update: Update,
    options: UpdateOptions,
  ): Promise<UpdateResult> {
    assertDefinedFilter(filter);
    const upsert = options.upsert ?? false;
    const r = await this.guard(() =>
      this.c[method](driverFilter(filter), driverUpdate(filter, update, upsert), { upsert }),
    );
    return {
      matchedCount: r.matchedCount,
      modifiedCount: r.modifiedCount,
      ...(r.upsertedId == null ? {} : { upsertedId: r.upsertedId as unknown as string | number }),
    };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<WithId<T> | null> {
    assertDefinedFilter(filter);
    const upsert = options.upsert ?? false;
    const doc = await this.guard(() =>
      this.c.findOneAndUpdate(driverFilter(filter), driverUpdate(filter, update, upsert), {
        upsert,
        returnDocument: options.returnDocument ?? 'after',
        ...(options.sort ? { sort: options.sort } : {}),
        ...(options.projection ? { projection: options.projection } : {}),
        includeResultMetadata: false,
      }),
    );
    return doc as WithId<T> | null;
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    assertDefinedFilter(filter);
    return { deletedCount: (await this.c.deleteOne(driverFilter(filter))).deletedCount };
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    assertDefinedFilter(filter);
    return { deletedCount: (await this.c.deleteMany(driverFilter(filter))).deletedCount };
  }

  /**
   * Idempotent. When an index of the same name or key exists with other options (a release changed
   * `sparse`, `unique` or `expireAfterSeconds`), the server refuses; then a changed TTL is applied in
   * place (collMod) and anything else is replaced (drop, create), with a warning, so that start-up
   * goes on with the options the code now declares.
   */
  async createIndex(fields: Record<string, 1 | -1>, options: IndexOptions = {}): Promise<void> {
    const spec = {
      name: options.name ?? defaultIndexName(fields),
      ...(options.unique ? { unique: true } : {}),
      ...(options.sparse ? { sparse: true } : {}),
      ...(options.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: options.expireAfterSeconds }),
    };
    try {
      await this.guard(() => this.c.createIndex(fields, spec));
      return;
    } catch (err) {
      if (!INDEX_CONFLICT_CODES.has((err as { code?: number }).code ?? -1)) throw err;
    }
    const sameKey = (key: Document) =>
      JSON.stringify(Object.entries(key)) === JSON.stringify(Object.entries(fields));
    const existing = (await this.c.listIndexes().toArray()).filter(
      (ix) => ix.name !== '_id_' && (ix.name === spec.name || sameKey(ix.key as Document)),
    );
    const context = { collection: this.name, index: spec.name, was: existing, now: { key: fields, ...spec } };
    const [only] = existing;
    if (
      existing.length === 1 &&
      only!.name === spec.name &&
      sameKey(only!.key as Document) &&
      Boolean(only!.unique) === Boolean(spec.unique) &&
      Boolean(only!.sparse) === Boolean(spec.sparse) &&
      only!.expireAfterSeconds !== undefined &&
      spec.expireAfterSeconds !== undefined
    ) {
      await this.db.command({
        collMod: this.name,
        index: { name: spec.name, expireAfterSeconds: spec.expireAfterSeconds },
      });
      this.logger.warn(context, 'changed the TTL of an index in place');
      return;
    }
    for (const ix of existing) await this.c.dropIndex(ix.name as string);
    this.logger.warn(context, 'replaced an index whose options changed');
    await this.guard(() => this.c.createIndex(fields, spec));
  }

  private async guard<R>(run: () => Promise<R>): Promise<R> {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: unknown }).code === 11000) {
        const index = /index: (\S+)/.exec(String((err as Error).message))?.[1];
        throw new DuplicateKeyError(this.name, index, err);
      }
      throw err;
    }
  }
}

function driverFilter(filter: Filter): DriverFilter<Document> {
  return filter as DriverFilter<Document>;
}

/** Upserts get a string `_id` (not an ObjectId) unless the filter or update already chooses one. */
function driverUpdate(filter: Filter, update: Update, upsert: boolean): UpdateFilter<Document> {
  const chosen = namesId(filter) || update.$set?._id !== undefined || update.$setOnInsert?._id !== undefined;
  if (!upsert || chosen) return update as UpdateFilter<Document>;
  return {
    ...update,
    $setOnInsert: { ...update.$setOnInsert, _id: newDocumentId() },
  } as UpdateFilter<Document>;
}

function namesId(filter: Filter): boolean {
  const id = filter._id;
  if (id !== undefined && (!isOperatorObject(id) || '$eq' in id)) return true;
  return Array.isArray(filter.$and) && (filter.$and as Filter[]).some(namesId);
}

/** A copy with `_id` set and `undefined` fields dropped: what the server stores and returns. */
function withId<T extends Doc>(doc: T): Plain {
  const copy = withoutUndefined(doc) as Plain;
  if (copy._id === undefined) copy._id = newDocumentId();
  return copy;
}

function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : withoutUndefined(v)));
  if (!isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Plain = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutUndefined(v);
  return out;
}
