// The embedded store (docs/adr/0001-store.md, docs/adr/0017-embedded-store-sqlite.md): one SQLite
// database per service, on disk as `<dir>/<service>/store.sqlite` or in memory (sqlite-file.ts,
// sqlite-collection.ts). A directory still holding the nedb data files of earlier versions (one
// `<collection>.db` per collection) is imported when it is opened (sqlite-migrate.ts). Same meaning as
// the MongoDB adapter for everything in port.ts.
import { type StoreLogger } from '@murmur/store';
import { resolve, join } from 'node:path';
import type {
  Collection,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexOptions,
  Store,
  Update,
  CollectionOptions,
  UpdateOptions,
  UpdateResult,
  DeleteResult,
  WithId,
} from '@murmur/store';
import { indexSpec } from './embedded-indexes.js';
import { DirectoryLock } from './embedded-lock.js';
import { SqliteCollectionCore } from './sqlite-collection.js';
import { SQLITE_FILE, SqliteFile } from './sqlite-file.js';
import { migrateNedbDirectory } from './sqlite-migrate.js';

export type EmbeddedLocation = { kind: 'memory'; name?: string } | { kind: 'file'; dir: string };

export interface EmbeddedStoreOptions {
  service: string;
  /**
   * `file`: data under `<dir>/<service>/`. `memory`: nothing on disk; with a `name`, every store opened
   * with the same name and service in this process sees the same data (like two clients of one server),
   * and the data outlives `close()` until the process ends.
   */
  location: EmbeddedLocation;
  /** How often documents past a TTL index are deleted (reads skip them at once). Default 60 s, as in MongoDB. */
  ttlSweepIntervalMs?: number;
  /**
   * `file` only: fsync each (group-committed) commit before acknowledging the write. Default true;
   * false trades the last moments of writes on a power cut for throughput (bench/store/run.mjs).
   */
  fsync?: boolean;
  /** `file` only: `full` makes SQLite fsync at every commit itself (bench/store compares). */
  synchronous?: 'normal' | 'full';
  /**
   * `file` only: the most memory SQLite's page cache may take, in MiB (default 64). Pages are cached as
   * they are read, so this is a ceiling a small database never reaches; the single process runs eight
   * stores and gives each less (docs/operations.md "Memory").
   */
  cacheMiB?: number;
  /** Where the import of an nedb directory is reported. Default: a process warning. */
  logger?: StoreLogger;
}

const SERVICE_NAME = /^[a-z0-9][a-z0-9_-]*$/i;
const COLLECTION_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The data behind one or more open stores: a service's directory, or an in-memory database. */
class EmbeddedDatabase {
  private readonly cores = new Map<string, SqliteCollectionCore>();
  private sqlite: SqliteFile | undefined;
  private openHandles = 0;
  private timers: NodeJS.Timeout[] = [];
  private lock: DirectoryLock | undefined;

  constructor(
    readonly registryKey: string | undefined,
    private readonly dir: string | undefined,
  ) {}

  /**
   * Opens the database once. A directory is taken for this process before any of its files is read,
   * and the nedb files of earlier versions in it are imported.
   */
  async open(options: EmbeddedStoreOptions): Promise<void> {
    if (this.sqlite) return;
    if (!this.dir) {
      this.sqlite = new SqliteFile(this.registryKey ?? 'memory:', { fsync: false, memory: true });
      return;
    }
    this.lock = await DirectoryLock.acquire(this.dir);
    try {
      const sqlite = new SqliteFile(join(this.dir, SQLITE_FILE), {
        fsync: options.fsync ?? true,
        ...(options.synchronous ? { synchronous: options.synchronous } : {}),
        ...(options.cacheMiB ? { cacheMiB: options.cacheMiB } : {}),
      });
      this.sqlite = sqlite;
      await migrateNedbDirectory(this.dir, sqlite, options.logger);
    } catch (err) {
      await this.sqlite?.close().catch(() => undefined);
      this.sqlite = undefined;
      await this.lock.release();
      this.lock = undefined;
      throw err;
    }
  }

  core(name: string, options: CollectionOptions = {}): SqliteCollectionCore {
    let core = this.cores.get(name);
    if (!core) {
      core = new SqliteCollectionCore(name, this.sqlite!);
      this.cores.set(name, core);
    }
    if (options.durability === 'relaxed') core.relaxed = true;
    return core;
  }

  acquire(options: EmbeddedStoreOptions): void {
    this.openHandles += 1;
    if (this.openHandles > 1) return;
    const timer = setInterval(() => {
      for (const core of this.cores.values()) core.sweepExpired().catch(() => undefined);
    }, options.ttlSweepIntervalMs ?? 60_000);
    // Housekeeping must not keep a process alive that has nothing else to do.
    timer.unref();
    this.timers.push(timer);
  }

  async release(): Promise<void> {
    this.openHandles -= 1;
    if (this.openHandles > 0) return;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    // A named memory database outlives its stores until the process ends (EmbeddedStoreOptions).
    if (!this.dir && this.registryKey) return;
    try {
      await Promise.all([...this.cores.values()].map((core) => core.close()));
      await this.sqlite?.close();
      await this.lock?.release();
    } finally {
      this.cores.clear();
      this.sqlite = undefined;
      // A directory is held by one database object at a time; the next open reads the files afresh.
      if (this.registryKey) databases.delete(this.registryKey);
    }
  }
}

/** Databases that must be shared within the process: open directories and named memory databases. */
const databases = new Map<string, EmbeddedDatabase>();

function databaseFor(options: EmbeddedStoreOptions): EmbeddedDatabase {
  const { location, service } = options;
  if (!SERVICE_NAME.test(service)) throw new Error(`invalid service name ${JSON.stringify(service)}`);
  if (location.kind === 'memory' && !location.name) return new EmbeddedDatabase(undefined, undefined);
  const dir = location.kind === 'file' ? resolve(location.dir, service) : undefined;
  const key = location.kind === 'file' ? `file:${dir}` : `memory:${location.name}/${service}`;
  const existing = databases.get(key);
  if (existing && location.kind === 'file') {
    // Two connections writing one directory would break the write queues; share the Store object instead.
    throw new Error(`embedded store ${dir} is already open in this process`);
  }
  if (existing) return existing;
  const db = new EmbeddedDatabase(key, dir);
  databases.set(key, db);
  return db;
}

export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  private closed: Promise<void> | undefined;
  private readonly collections = new Map<string, Collection>();
  /** Collections asked for as relaxed by any caller of this store. */
  private readonly relaxed = new Set<string>();

  private constructor(private readonly database: EmbeddedDatabase) {}

  static async open(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
    const database = databaseFor(options);
    try {
      await database.open(options);
    } catch (err) {
      if (database.registryKey) databases.delete(database.registryKey);
      throw err;
    }
    database.acquire(options);
    return new EmbeddedStore(database);
  }

  collection<T extends Doc = Doc>(name: string, options: CollectionOptions = {}): Collection<T> {
    if (!COLLECTION_NAME.test(name) || name.startsWith('system.')) {
      throw new Error(`invalid collection name ${JSON.stringify(name)}`);
    }
    // Relaxed once, relaxed for the process (CollectionOptions), even when a handle was made before.
    if (options.durability === 'relaxed') this.relaxed.add(name);
    let handle = this.collections.get(name);
    if (!handle) {
      handle = new EmbeddedCollection(name, () => {
        if (this.closed) throw new Error('store is closed');
        return this.database.core(name, this.relaxed.has(name) ? { durability: 'relaxed' } : {});
      });
      this.collections.set(name, handle);
    }
    return handle as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('store is closed');
  }

  /** Waits for queued writes and releases the directory (or frees an unnamed memory database). Idempotent. */
  close(): Promise<void> {
    this.closed ??= this.database.release();
    return this.closed;
  }
}

class EmbeddedCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly core: () => SqliteCollectionCore,
  ) {}

  private async open(): Promise<SqliteCollectionCore> {
    const core = this.core();
    await core.ready;
    return core;
  }

  async insertOne(doc: T): Promise<WithId<T>> {
    const [stored] = await (await this.open()).insert([doc]);
    return stored as WithId<T>;
  }

  async insertMany(docs: T[]): Promise<WithId<T>[]> {
    return (await (await this.open()).insert(docs)) as WithId<T>[];
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<WithId<T> | null> {
    const [doc] = await (await this.open()).find(filter, { ...options, limit: 1 });
    return (doc as WithId<T> | undefined) ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<WithId<T>[]> {
    return (await (await this.open()).find(filter, options)) as WithId<T>[];
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return (await this.open()).count(filter);
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return (await this.open()).update(filter, update, options.upsert ?? false, false);
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return (await this.open()).update(filter, update, options.upsert ?? false, true);
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<WithId<T> | null> {
    return (await (await this.open()).findOneAndUpdate(filter, update, options)) as WithId<T> | null;
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    return { deletedCount: await (await this.open()).delete(filter, false) };
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    return { deletedCount: await (await this.open()).delete(filter, true) };
  }

  async createIndex(fields: Record<string, 1 | -1>, options?: IndexOptions): Promise<void> {
    const spec = indexSpec(fields, options);
    await (await this.open()).createIndex(spec);
  }
}
