// One service's embedded SQLite database (docs/adr/0017-embedded-store-sqlite.md), on disk or in
// memory (`memory` below: a write commits at once, nothing is synced): the connection,
// its settings, the index catalog, the transaction of the current turn of the event loop, and the
// group-committed fsync that makes a commit durable before a write is acknowledged.
//
// One transaction per turn: the first write of a turn of the event loop opens a transaction (BEGIN);
// every write of that turn runs inside it in a savepoint of its own (`write()`: a write that throws is
// undone alone, the others stand); the transaction commits at the end of the turn (`setImmediate`),
// and in any case before the group fsync starts. A turn's writes thus cost one COMMIT (its WAL frames
// written once, each page once) instead of one each. Nothing is acknowledged before its commit:
// durable writes wait for `durable()`, relaxed ones for `committed()`. A COMMIT that fails (or a
// transaction SQLite rolled back after an I/O error) rejects every write of the turn and breaks the
// store like a failed fsync: in-memory state (index catalogs) may no longer match the disk.
//
// Durability: the database runs in WAL mode with `synchronous=NORMAL`. A commit has then written its
// frames to the `-wal` file with write(2) before it returns, so it survives a kill -9 of the process
// (the kernel holds the pages). For a power cut, the caller awaits `durable()` before acknowledging:
// an fdatasync of the `-wal` file, off the event loop (libuv's thread pool), started at the end of the
// turn of the event loop and shared by every commit made in that turn or while the previous one ran,
// which is what `synchronous=FULL` would do at every commit, but on the event loop and once per commit.
// Checkpoints (SQLite's own, at 1,000 WAL pages) fsync the WAL before copying it into the database file
// and the database file after, in either mode.
//
// better-sqlite3 refuses any statement while an iterator of the connection is open. The collections
// read lazily only inside synchronous calls (SqliteCollectionCore.select in sqlite-collection.ts: its
// `for…of` closes the iterators when it stops early or throws), and the COMMIT runs from a callback of
// its own (setImmediate, a promise reaction, close()), so it never meets an open iterator.
import { open, type FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { IndexSpec } from './embedded-indexes.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as typeof BetterSqlite3;

/** The data file's name in a service's directory. */
export const SQLITE_FILE = 'store.sqlite';

export interface SqliteOptions {
  /** fdatasync the WAL (group-committed) before acknowledging a write. Default true. */
  fsync: boolean;
  /**
   * In memory (`path` then only names the database in messages): each write is its own transaction, committed before it returns.
   * There is nothing to sync, so sharing a turn's COMMIT saves nothing, and a write needs no turn of
   * the event loop to be acknowledged.
   */
  memory?: boolean;
  /** `full`: SQLite fsyncs at every commit itself, on the event loop (for the benchmark's comparison). */
  synchronous?: 'normal' | 'full';
  /** The page cache's ceiling in MiB (default 64). */
  cacheMiB?: number;
}

/**
 * Tests only (libs/store-embedded/test/sqlite-turn-transaction.test.ts): called with the database's
 * path just before each turn's COMMIT; throwing makes that commit fail as a failed COMMIT would.
 */
export const sqliteTestHooks: { beforeCommit?: (path: string) => void } = {};

/** The transaction of the current turn, open until `endTurn()`. */
interface Turn {
  committed: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Immediate;
}

export interface CatalogEntry {
  id: number;
  spec: IndexSpec;
  multikey: boolean;
}

export class SqliteFile {
  readonly db: BetterSqlite3.Database;
  /**
   * Runs `fn` in a transaction, or in a savepoint inside one (undone alone when `fn` throws). One
   * wrapper for every call: better-sqlite3 builds four closures per `db.transaction(fn)`.
   */
  readonly inTransaction: <T>(fn: () => T) => T;
  private readonly begin: BetterSqlite3.Statement;
  private readonly commit: BetterSqlite3.Statement;
  private readonly rollback: BetterSqlite3.Statement;
  /** The transaction this turn's writes share, while open. */
  private turn: Turn | undefined;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private wal: Promise<FileHandle> | undefined;
  /** The running fsync (settled either way). */
  private inFlight: Promise<void> | undefined;
  /** The next fsync, not started yet: every commit made before it starts is covered by it. */
  private next: Promise<void> | undefined;
  /** Set once an fsync failed: what is on disk is unknown, so nothing more is acknowledged. */
  private broken: Error | undefined;
  /**
   * SQLite's `total_changes()` when the last successful fsync started (-1: none yet). The same count
   * at the next `durable()` means nothing was written since, so there is nothing to sync: a write
   * that changed nothing (a job queue's claim finding no job) is acknowledged without an fsync.
   */
  private syncedChanges = -1;
  private readonly totalChanges: BetterSqlite3.Statement;

  constructor(
    readonly path: string,
    private readonly options: SqliteOptions,
  ) {
    this.db = new Database(options.memory ? ':memory:' : path);
    this.inTransaction = this.db.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
    if (!options.memory) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      // 64 MiB of page cache by default: the working set of indexes; documents are read by key.
      this.db.pragma(`cache_size = -${Math.round((options.cacheMiB ?? 64) * 1024)}`);
    }
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS murmur_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS murmur_indexes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        collection TEXT NOT NULL,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,
        multikey INTEGER NOT NULL DEFAULT 0,
        UNIQUE (collection, name)
      );
    `);
    this.begin = this.db.prepare('BEGIN');
    this.commit = this.db.prepare('COMMIT');
    this.rollback = this.db.prepare('ROLLBACK');
    this.totalChanges = this.db.prepare('SELECT total_changes() AS n').pluck();
  }

  /**
   * Runs a write in this turn's transaction (opened here by the turn's first write, committed at the
   * end of the turn), in a savepoint of its own: undone alone when `fn` throws. Inside a transaction
   * someone else opened (the nedb import, sqlite-migrate.ts), only the savepoint.
   */
  write<T>(fn: () => T): T {
    if (this.broken) throw this.broken;
    if (this.options.memory) return this.inTransaction(fn);
    if (this.turn) {
      // SQLite rolls the whole transaction back after some errors (SQLITE_FULL, SQLITE_IOERR…):
      // the turn's earlier writes are gone, so none of them may be acknowledged.
      if (!this.db.inTransaction) {
        const failed = this.endTurn();
        if (failed) throw failed;
      }
    } else if (!this.db.inTransaction) {
      this.begin.run();
      let resolve!: () => void;
      let reject!: (err: Error) => void;
      const committed = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      committed.catch(() => undefined);
      this.turn = { committed, resolve, reject, timer: setImmediate(() => this.endTurn()) };
    }
    return this.inTransaction(fn);
  }

  /**
   * Commits this turn's transaction, if one is open. A failure rolls back what is left of it, breaks
   * the store and rejects the turn's writes; it is returned (and not thrown) for callers that must
   * reject more.
   */
  private endTurn(): Error | undefined {
    const turn = this.turn;
    if (!turn) return undefined;
    this.turn = undefined;
    clearImmediate(turn.timer);
    try {
      if (!this.db.inTransaction) throw new Error('SQLite rolled the transaction back after an error');
      sqliteTestHooks.beforeCommit?.(this.path);
      this.commit.run();
    } catch (err) {
      try {
        if (this.db.inTransaction) this.rollback.run();
      } catch {
        // The connection is unusable either way; the store is broken below.
      }
      this.broken ??= new Error(`embedded store ${this.path}: commit failed, restart the store`, {
        cause: err,
      });
      turn.reject(this.broken);
      return this.broken;
    }
    if (this.broken) turn.reject(this.broken);
    else turn.resolve();
    return undefined;
  }

  /**
   * Resolves once every write made so far is committed (the end of this turn if a transaction is
   * open): what a relaxed write waits for. Rejects once the store is broken.
   */
  committed(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return this.turn?.committed ?? Promise.resolve();
  }

  /** A prepared statement, prepared once per SQL text. */
  stmt(sql: string): BetterSqlite3.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  meta(key: string): string | undefined {
    const row = this.stmt('SELECT v FROM murmur_meta WHERE k = ?').get(key) as { v: string } | undefined;
    return row?.v;
  }

  setMeta(key: string, value: string): void {
    this.stmt('INSERT OR REPLACE INTO murmur_meta (k, v) VALUES (?, ?)').run(key, value);
  }

  catalog(collection: string): CatalogEntry[] {
    const rows = this.stmt(
      'SELECT id, spec, multikey FROM murmur_indexes WHERE collection = ? ORDER BY id',
    ).all(collection) as { id: number; spec: string; multikey: number }[];
    return rows.map((r) => ({ id: r.id, spec: JSON.parse(r.spec) as IndexSpec, multikey: r.multikey === 1 }));
  }

  addIndex(collection: string, spec: IndexSpec): number {
    const info = this.stmt('INSERT INTO murmur_indexes (collection, name, spec) VALUES (?, ?, ?)').run(
      collection,
      spec.name,
      JSON.stringify(spec),
    );
    return Number(info.lastInsertRowid);
  }

  removeIndex(id: number): void {
    this.stmt('DELETE FROM murmur_indexes WHERE id = ?').run(id);
  }

  markMultikey(id: number): void {
    this.stmt('UPDATE murmur_indexes SET multikey = 1 WHERE id = ?').run(id);
  }

  /**
   * Resolves once every write made so far is committed and on disk (see the file comment); with
   * `fsync: false` once committed. The fsync starts at the end of the current turn of the event loop,
   * after the running one, and after this turn's transaction commits: every write made in this turn
   * (a request's several writes, or concurrent requests') shares it, and so do writes made while the
   * running one lasts. Rejects once the store is broken (a failed commit or fsync), even if this
   * caller's own commit had succeeded.
   */
  durable(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (!this.options.fsync || this.options.memory || this.options.synchronous === 'full')
      return this.committed();
    this.next ??= this.afterTurn().then(() => {
      // From here on, a write needs the fsync after this one.
      this.next = undefined;
      // The fsync covers only what is committed when it starts: this turn's transaction first (its
      // setImmediate may come after ours). A commit that failed, now or in an earlier turn whose
      // writes wait for this fsync, means those writes are not on disk.
      this.endTurn();
      if (this.broken) throw this.broken;
      // Rows changed by any statement since the last fsync started (counted even when a savepoint
      // undid them, which only costs an fsync more); none: everything committed is on disk already.
      const changes = this.totalChanges.get() as number;
      if (changes === this.syncedChanges) return;
      const run = this.syncOnce().then(() => {
        this.syncedChanges = Math.max(this.syncedChanges, changes);
      });
      const settled: Promise<void> = run.then(
        () => this.ended(settled),
        () => this.ended(settled),
      );
      this.inFlight = settled;
      return run;
    });
    return this.next;
  }

  /** The end of this turn of the event loop, and of the running fsync. */
  private async afterTurn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.inFlight) await this.inFlight;
  }

  private ended(fsync: Promise<void>): void {
    if (this.inFlight === fsync) this.inFlight = undefined;
  }

  private async syncOnce(): Promise<void> {
    try {
      this.wal ??= open(`${this.path}-wal`, 'r');
      await (await this.wal).datasync();
    } catch (err) {
      this.broken = new Error(`embedded store ${this.path}: fsync failed, restart the store`, { cause: err });
      throw this.broken;
    }
  }

  async close(): Promise<void> {
    this.endTurn();
    while (this.next || this.inFlight) await (this.next ?? this.inFlight)?.catch(() => undefined);
    // An open transaction would be rolled back by close().
    this.endTurn();
    if (this.wal) await (await this.wal.catch(() => undefined))?.close();
    this.statements.clear();
    // Closing the last connection checkpoints the WAL into the database file and removes it.
    this.db.close();
  }
}
