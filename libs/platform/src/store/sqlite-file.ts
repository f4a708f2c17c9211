// One service's embedded SQLite database (docs/adr/0017-embedded-store-sqlite.md): the connection,
// its settings, the index catalog, and the group-committed fsync that makes a commit durable before a
// write is acknowledged.
//
// Durability: the database runs in WAL mode with `synchronous=NORMAL`. A commit has then written its
// frames to the `-wal` file with write(2) before it returns, so it survives a kill -9 of the process
// (the kernel holds the pages). For a power cut, the caller awaits `durable()` before acknowledging:
// an fdatasync of the `-wal` file, off the event loop (libuv's thread pool), started at the end of the
// turn of the event loop and shared by every commit made in that turn or while the previous one ran, which is what `synchronous=FULL` would do at every commit, but
// on the event loop and once per commit. Checkpoints (SQLite's own, at 1,000 WAL pages) fsync the WAL
// before copying it into the database file and the database file after, in either mode.
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
  /** `full`: SQLite fsyncs at every commit itself, on the event loop (for the benchmark's comparison). */
  synchronous?: 'normal' | 'full';
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
  readonly inTransaction: (fn: () => void) => void;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private wal: Promise<FileHandle> | undefined;
  /** The running fsync (settled either way). */
  private inFlight: Promise<void> | undefined;
  /** The next fsync, not started yet: every commit made before it starts is covered by it. */
  private next: Promise<void> | undefined;
  /** Set once an fsync failed: what is on disk is unknown, so nothing more is acknowledged. */
  private broken: Error | undefined;

  constructor(
    readonly path: string,
    private readonly options: SqliteOptions,
  ) {
    this.db = new Database(path);
    this.inTransaction = this.db.transaction((fn: () => void) => fn());
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // 64 MiB of page cache: the working set of indexes; documents are read by key.
    this.db.pragma('cache_size = -65536');
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
   * Resolves once every commit made so far is on disk (see the file comment); at once with `fsync: false`.
   * The fsync starts at the end of the current turn of the event loop, after the running one: every
   * commit made in this turn (a request's several writes, or concurrent requests') shares it, and so
   * do commits made while the running one lasts.
   */
  durable(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (!this.options.fsync || this.options.synchronous === 'full') return Promise.resolve();
    this.next ??= this.afterTurn().then(() => {
      // From here on, a commit needs the fsync after this one.
      this.next = undefined;
      const run = this.syncOnce();
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
    while (this.next || this.inFlight) await (this.next ?? this.inFlight)?.catch(() => undefined);
    if (this.wal) await (await this.wal.catch(() => undefined))?.close();
    this.statements.clear();
    // Closing the last connection checkpoints the WAL into the database file and removes it.
    this.db.close();
  }
}
