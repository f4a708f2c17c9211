// Loaded into the single process with `node --import` by bench/memory/run.mjs: on SIGUSR2 it writes
// the process's memory as V8 and SQLite see it to `<MURMUR_MEMORY_PROBE>.json` (then renames it into
// place, so the reader never sees half a file). With --expose-gc it collects first when
// `<MURMUR_MEMORY_PROBE>.gc` exists (and removes it). It records every better-sqlite3 connection the process
// opens (by wrapping `prepare`) to report each database's page cache ceiling and size.
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const databases = new Set();
try {
  const Database = createRequire(join(root, 'libs/store-embedded/package.json'))('better-sqlite3');
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function recorded(...args) {
    databases.add(this);
    return prepare.apply(this, args);
  };
} catch {
  // No SQLite in this build: the report simply lists no database.
}

function sqliteOf(db) {
  if (!db.open) return null;
  const pragma = (name) => db.pragma(name, { simple: true });
  const pageSize = pragma('page_size');
  const cacheSize = pragma('cache_size');
  return {
    name: db.memory ? `memory:${db.name}` : db.name,
    pageSize,
    // Negative: KiB; positive: pages.
    cacheCeilingBytes: cacheSize < 0 ? -cacheSize * 1024 : cacheSize * pageSize,
    databaseBytes: pragma('page_count') * pageSize,
  };
}

process.on('SIGUSR2', () => {
  const base = process.env.MURMUR_MEMORY_PROBE;
  if (!base) return;
  if (existsSync(`${base}.gc`)) {
    rmSync(`${base}.gc`);
    globalThis.gc?.();
  }
  const file = `${base}.json`;
  const report = {
    memoryUsage: process.memoryUsage(),
    heapStatistics: v8.getHeapStatistics(),
    heapSpaces: v8.getHeapSpaceStatistics(),
    sqlite: [...databases].map(sqliteOf).filter(Boolean),
  };
  writeFileSync(`${file}.tmp`, JSON.stringify(report));
  renameSync(`${file}.tmp`, file);
});
