// Durable appends for nedb data files (docs/adr/0008-embedded-store-durability.md). nedb appends a
// line per changed document with fs.appendFile and no fsync, so an acknowledged write could still be
// lost to a power cut; and when it reads a file back it drops documents whose `_id` is falsy (`0`,
// `''`) and merges `1` with `'1'`. This module replaces both parts on one Datastore instance:
// appends are group-committed (every line queued while one fsync runs goes out with the next one)
// and the loader keys documents by typed id.
import { type Plain } from '@murmur/store';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Datastore } from './nedb.js';
import { encodeKey } from './values.js';

const require = createRequire(import.meta.url);
/** nedb's own (de)serializer: dates as `{$$date}`, field-name checks. Not part of its typed API. */
export const nedbModel = require('@seald-io/nedb/lib/model.js') as {
  serialize(doc: unknown): string;
  deserialize(line: string): Plain;
  checkObject(doc: unknown): void;
  deepCopy<T>(doc: T): T;
};

export interface DurabilityOptions {
  /** fsync every commit before acknowledging it. Default true. */
  fsync: boolean;
}

/** Appends lines to one file; each `append` resolves once its lines are written (and synced). */
export class GroupCommitFile {
  private pending: string[] = [];
  private waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;
  /** Set once an append failed: memory and file may disagree, so nothing more is acknowledged. */
  private broken: Error | undefined;

  constructor(
    private readonly filename: string,
    private readonly options: DurabilityOptions,
  ) {}

  append(text: string): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (text.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push(text);
      this.waiters.push({ resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Resolves once every append queued so far is on disk. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.broken) throw this.broken;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const text = this.pending.join('');
        const waiters = this.waiters;
        this.pending = [];
        this.waiters = [];
        try {
          const handle = await open(this.filename, 'a', 0o644);
          try {
            await handle.appendFile(text, 'utf8');
            if (this.options.fsync) await handle.datasync();
          } finally {
            await handle.close();
          }
          for (const w of waiters) w.resolve();
        } catch (err) {
          this.broken = new Error(
            `could not write ${this.filename}; the store refuses further writes until restarted`,
            { cause: err },
          );
          for (const w of [...waiters, ...this.waiters]) w.reject(this.broken);
          this.pending = [];
          this.waiters = [];
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }
}

interface NedbPersistence {
  persistNewStateAsync(docs: unknown[]): Promise<void>;
  treatRawStreamAsync(stream: Readable): Promise<{ data: Plain[]; indexes: Record<string, unknown> }>;
}

/** Makes `db` append durably through `file` and load every `_id` faithfully. */
export function makeDurable(db: Datastore<Plain>, file: GroupCommitFile): void {
  const persistence = (db as unknown as { persistence: NedbPersistence }).persistence;
  persistence.persistNewStateAsync = (docs) =>
    file.append(docs.map((doc) => nedbModel.serialize(doc) + '\n').join(''));
  persistence.treatRawStreamAsync = treatRawStream;
}

/** Like nedb's loader, but `_id` 0 and `''` are ids, and `1` and `'1'` are different ones. */
async function treatRawStream(
  stream: Readable,
): Promise<{ data: Plain[]; indexes: Record<string, unknown> }> {
  const byId = new Map<string, Plain>();
  let lines = 0;
  let corrupt = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line === '') continue;
    lines += 1;
    let doc: Plain;
    try {
      doc = nedbModel.deserialize(line);
    } catch {
      // A line cut short by a crash mid-append (it was never acknowledged).
      corrupt += 1;
      continue;
    }
    if (doc._id !== undefined) {
      const key = encodeKey(doc._id);
      if (doc.$$deleted === true) byId.delete(key);
      else byId.set(key, doc);
    }
    // nedb's own index lines (`$$indexCreated`) are ignored: the adapter builds its indexes from the
    // catalog and recomputed keys (embedded-indexes.ts), so nedb itself only keeps `_id`.
  }
  // As nedb: a few bad lines are a torn tail; many mean the file is not what we think it is.
  if (lines > 0 && corrupt / lines > 0.1) {
    throw new Error(
      `${Math.floor((100 * corrupt) / lines)}% of the data file is corrupt; refusing to start to prevent data loss`,
    );
  }
  return { data: [...byId.values()], indexes: {} };
}
