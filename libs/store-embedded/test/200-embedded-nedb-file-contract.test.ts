// The store contract on the nedb engine with files, the `file:` engine of earlier versions: the
// migration to SQLite (sqlite-migrate.ts) reads directories with it, so it must still mean what the
// port says. `file:` itself runs on SQLite (200-embedded-file-contract.test.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from '@jest/globals';
import { EmbeddedStore } from '../src/embedded.js';
import { defineStoreContract } from '../../store/test/contract.js';

describe('embedded adapter (nedb engine, files)', () => {
  defineStoreContract(
    () => {
      const dir = mkdtemp(join(tmpdir(), 'murmur-store-nedb-'));
      return {
        open: async () =>
          EmbeddedStore.open({
            service: 'contract',
            location: { kind: 'file', dir: await dir },
            engine: 'nedb',
            ttlSweepIntervalMs: 100,
          }),
        dispose: async () => rm(await dir, { recursive: true, force: true }),
      };
    },
    { persistent: true, ttlDeletedWithinMs: 1_000 },
  );
});
