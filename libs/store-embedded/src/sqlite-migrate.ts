// Moving a service's directory from the nedb engine to SQLite (docs/adr/0017-embedded-store-sqlite.md).
// Earlier versions kept one nedb data file per collection (`<collection>.db`) and the index catalog
// (`system.indexes.db`) in `<dir>/<service>/`. When such files are there on open, every collection is
// read (nedb-files.ts: typed ids, torn last lines skipped) and written into
// `store.sqlite` in ONE transaction, with its index definitions; then the old files are moved to
// `nedb-migrated-<time>/` next to it (kept, not deleted) and the migration is logged. A crash before
// the commit leaves the old files in place and an empty database: the next start migrates again. A
// crash after it is recognised by the `migrated-from-nedb` mark, and the files are only moved.
import { type StoreLogger } from '@murmur/store';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readNedbCatalog, readNedbCollection } from './nedb-files.js';
import { SqliteCollectionCore } from './sqlite-collection.js';
import type { SqliteFile } from './sqlite-file.js';

const CATALOG = 'system.indexes.db';
const MARK = 'migrated-from-nedb';

const warnProcess: StoreLogger = {
  warn: (details, message) => process.emitWarning(`${message} ${JSON.stringify(details)}`),
};

/** Thrown when nedb files cannot be migrated; the message says what to do. */
export class StoreMigrationError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StoreMigrationError';
  }
}

export async function migrateNedbDirectory(
  dir: string,
  sqlite: SqliteFile,
  logger: StoreLogger = warnProcess,
): Promise<void> {
  // nedb's compaction writes `<file>~` and renames it: a crash between leaves only the `~` file.
  const files = (await readdir(dir)).filter((f) => f.endsWith('.db') || f.endsWith('.db~'));
  if (files.length === 0) return;
  const started = Date.now();
  let summary = sqlite.meta(MARK);
  if (!summary) {
    const collections = [
      ...new Set(files.map((f) => f.replace(/\.db~?$/, '')).filter((n) => `${n}.db` !== CATALOG)),
    ].sort();
    const counts: Record<string, number> = {};
    let current = '';
    sqlite.db.exec('BEGIN');
    try {
      current = CATALOG;
      const catalog = await readNedbCatalog(join(dir, CATALOG));
      for (const name of collections) {
        current = name;
        const docs = await readNedbCollection(join(dir, `${name}.db`));
        const target = new SqliteCollectionCore(name, sqlite);
        await target.ready;
        target.importSync(catalog.get(name) ?? [], docs);
        counts[name] = docs.length;
      }
      summary = JSON.stringify({ at: new Date(started).toISOString(), collections: counts });
      sqlite.setMeta(MARK, summary);
      sqlite.db.exec('COMMIT');
    } catch (err) {
      if (sqlite.db.inTransaction) sqlite.db.exec('ROLLBACK');
      throw new StoreMigrationError(
        `embedded store ${dir}: cannot migrate the nedb data files of earlier versions to SQLite ` +
          `(collection ${JSON.stringify(current)}: ${(err as Error).message}). Nothing was changed. ` +
          `Fix the file named, or start the previous Murmur version once and export the data, or move ` +
          `the *.db files out of ${dir} to start with an empty store.`,
        err,
      );
    }
    await sqlite.durable();
  }
  const backup = join(dir, `nedb-migrated-${new Date(started).toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(backup, { recursive: true });
  for (const f of (await readdir(dir)).filter((f) => f.endsWith('.db') || f.endsWith('.db~')))
    await rename(join(dir, f), join(backup, f));
  const { collections } = JSON.parse(summary) as { collections: Record<string, number> };
  const documents = Object.values(collections).reduce((a, b) => a + b, 0);
  logger.warn(
    {
      dir,
      database: sqlite.path,
      collections: Object.keys(collections).length,
      documents,
      oldFilesMovedTo: backup,
      ms: Date.now() - started,
    },
    `embedded store: migrated ${documents} documents in ${Object.keys(collections).length} collections ` +
      `from nedb data files to ${sqlite.path}; the old files are in ${backup}`,
  );
}
