// The store contract suite: the definition of what the port means (port.ts). Every adapter runs it
// through a harness; tests only use the port, so a pass on the embedded adapter says nothing about
// MongoDB that the MongoDB run does not check too.
import { afterEach, beforeEach, describe, it } from '@jest/globals';
import type { Store } from '../src/port.js';
import { defineReadTests } from './contract-read.js';
import { defineWriteTests } from './contract-write.js';
import { defineIndexTests } from './contract-index.js';

export interface StoreHarness {
  /** Opens the database under test; after `close()`, opens the same data again. */
  open(): Promise<Store>;
  /** Removes whatever the harness created. */
  dispose(): Promise<void>;
}

export interface ContractContext {
  /** The store of the running test. */
  readonly store: Store;
  /** Closes the store and opens the same data again (when the adapter persists). */
  reopen(): Promise<Store>;
}

export interface ContractOptions {
  /** The harness can reopen the same data after close: run the persistence tests. */
  persistent: boolean;
  /**
   * How long a document past its TTL may still be stored. All the contract promises is "gone
   * eventually": MongoDB's TTL monitor deletes within about 60 s of expiry, the embedded adapter
   * sweeps at its `ttlSweepIntervalMs` (and hides expired documents at once, which code must not
   * rely on).
   */
  ttlDeletedWithinMs: number;
  /**
   * The engine under test, for the titles of skipped tests (e.g. 'FerretDB v1.24.2'). Default: none.
   */
  engine?: string;
  /**
   * The guarantees this engine lacks, each with the difference in a few words. Only their tests are
   * skipped, with a title naming the difference; MongoDB and the embedded engine lack none.
   */
  lacks?: Partial<Record<Guarantee, string>>;
}

/**
 * The guarantees of the port that an engine may lack. MongoDB (every supported version,
 * docs/operations.md) and the embedded engine give all of them; FerretDB 1.24, which CI runs the
 * MongoDB adapter against, lacks those its profile lists (libs/store-mongodb/test/ferretdb.ts).
 * Code that runs on MongoDB may rely on each of them.
 */
export type Guarantee =
  /** A document past its TTL is deleted eventually. */
  | 'ttl-expiry'
  /** An update (updateOne, updateMany, findOneAndUpdate) that breaks a unique index throws DuplicateKeyError. */
  | 'update-duplicate-key'
  /** DuplicateKeyError.index names the index that refused the write. */
  | 'duplicate-key-names-index'
  /** A non-sparse unique index counts a missing field as null: a second document without it is refused. */
  | 'unique-missing-as-null'
  /** A sparse compound unique index indexes every document having any of its fields (a missing one as null). */
  | 'sparse-compound-unique'
  /** A unique index over an array field refuses an element another document's array holds. */
  | 'multikey-unique'
  /** Creating a unique index over existing duplicates throws DuplicateKeyError. */
  | 'unique-build-duplicate-key'
  /** $pull removes the elements matching a condition or a document. */
  | 'pull-by-condition'
  /** $push with $slice keeps only the last (or first) n elements. */
  | 'push-slice'
  /** findOneAndUpdate returns only the fields its projection asks for. */
  | 'find-and-modify-projection';

/**
 * `it(title, fn)` when the engine gives `guarantee`; else a skipped test whose title says which engine
 * lacks it and how it differs.
 */
export function itGuaranteed(
  options: Pick<ContractOptions, 'engine' | 'lacks'>,
  guarantee: Guarantee,
  title: string,
  fn: () => Promise<void>,
  timeout?: number,
): void {
  const difference = options.lacks?.[guarantee];
  if (difference === undefined) it(title, fn, timeout);
  else it.skip(`${title} — SKIPPED on ${options.engine ?? 'this engine'}: ${difference}`, fn, timeout);
}

export function defineStoreContract(makeHarness: () => StoreHarness, options: ContractOptions): void {
  let harness: StoreHarness | undefined;
  let current: Store | undefined;
  const ctx: ContractContext = {
    get store() {
      if (!current) throw new Error('no store open');
      return current;
    },
    async reopen() {
      await current?.close();
      current = undefined;
      current = await harness!.open();
      return current;
    },
  };

  beforeEach(async () => {
    harness = makeHarness();
    current = await harness.open();
  });

  afterEach(async () => {
    await current?.close();
    current = undefined;
    await harness?.dispose();
  });

  describe('documents and filters', () => defineReadTests(ctx));
  describe('updates and deletes', () => defineWriteTests(ctx, options));
  describe('indexes, counters and persistence', () => defineIndexTests(ctx, options));
}
