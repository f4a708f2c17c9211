// The store contract suite: the definition of what the port means (port.ts). Every adapter runs it
// through a harness; tests only use the port, so a pass on the embedded adapter says nothing about
// MongoDB that the MongoDB run does not check too.
import { afterEach, beforeEach, describe } from '@jest/globals';
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
  describe('updates and deletes', () => defineWriteTests(ctx));
  describe('indexes, counters and persistence', () => defineIndexTests(ctx, options));
}
