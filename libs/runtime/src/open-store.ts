// One setting chooses the adapter (docs/architecture.md, run modes): `STORE_URL` is `memory:`, `file:<dir>` or a MongoDB URL.
import { type StoreLogger } from '@murmur/store';
import { fileURLToPath } from 'node:url';
import { EmbeddedStore, type EmbeddedStoreOptions } from '@murmur/store-embedded';
import type { Store } from '@murmur/store';

export interface OpenStoreOptions {
  /** The owning service; names its directory (`<dir>/<service>/`) or database (`murmur_<service>`). */
  service: string;
  /** Embedded only. */
  ttlSweepIntervalMs?: EmbeddedStoreOptions['ttlSweepIntervalMs'];
  /**
   * MongoDB: where to warn that an index was replaced because its options changed. Embedded `file:`:
   * where the import of a directory written by the nedb engine of earlier versions is reported.
   */
  logger?: StoreLogger;
  /** Embedded `file:` only: fsync before acknowledging writes (default true). */
  fsync?: EmbeddedStoreOptions['fsync'];
  /** Embedded `file:` only: SQLite's page cache ceiling in MiB (STORE_CACHE_MIB; default 64). */
  cacheMiB?: EmbeddedStoreOptions['cacheMiB'];
}

/**
 * - `memory:` → embedded, a SQLite database in memory, private to this store;
 * - `memory:<name>` → embedded, in memory, shared by every store opened with that name (and service) in this process;
 * - `file:<dir>` (or `file:///abs/dir`) → embedded, one SQLite database `<dir>/<service>/store.sqlite`
 *   (a directory of nedb data files from earlier versions is imported on open);
 * - `mongodb://…`, `mongodb+srv://…` → MongoDB, database `murmur_<service>` unless the URL's path names one.
 */
export async function openStore(url: string, options: OpenStoreOptions): Promise<Store> {
  const { service, logger, ...housekeeping } = options;
  const embeddedLogger = logger ? { logger } : {};
  if (url.startsWith('memory:')) {
    const name = url.slice('memory:'.length);
    return EmbeddedStore.open({
      service,
      location: { kind: 'memory', ...(name ? { name } : {}) },
      ...housekeeping,
    });
  }
  if (url.startsWith('file:')) {
    const dir = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
    if (!dir) throw new Error('STORE_URL file: needs a directory, e.g. file:./data');
    return EmbeddedStore.open({
      service,
      location: { kind: 'file', dir },
      ...housekeeping,
      ...embeddedLogger,
    });
  }
  if (url.startsWith('mongodb://') || url.startsWith('mongodb+srv://')) {
    // Loaded on demand: the driver is a quarter of the platform's start-up cost and most runs never use it.
    const { MongoStore } = await import('@murmur/store-mongodb');
    return MongoStore.connect(url, { service, ...(logger ? { logger } : {}) });
  }
  throw new Error(
    `unsupported store URL ${JSON.stringify(redact(url))}: use memory:, file:<dir> or mongodb://…`,
  );
}

/** URLs may carry passwords; error messages must not. */
function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
