// The store contract on the embedded adapter with files (the SQLite engine, store.sqlite per service):
// every test gets a fresh directory, and "reopen" reads the files back after close().
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from '@jest/globals';
import { openStore } from '@murmur/runtime';
import { defineStoreContract } from '../../store/test/contract.js';

describe('embedded adapter (file:)', () => {
  defineStoreContract(
    () => {
      const dir = mkdtemp(join(tmpdir(), 'murmur-store-'));
      return {
        open: async () => openStore(`file:${await dir}`, { service: 'contract', ttlSweepIntervalMs: 100 }),
        dispose: async () => rm(await dir, { recursive: true, force: true }),
      };
    },
    { persistent: true, ttlDeletedWithinMs: 1_000 },
  );
});
