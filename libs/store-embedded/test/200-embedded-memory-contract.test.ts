// The store contract on the embedded adapter in memory. Each test gets its own named in-memory
// database, so "reopen" opens the same data again, as a second client of one server would.
import { describe } from '@jest/globals';
import { openStore } from '@murmur/runtime';
import { defineStoreContract } from '../../store/test/contract.js';

let n = 0;

describe('embedded adapter (memory:)', () => {
  defineStoreContract(
    () => {
      const url = `memory:contract-${process.pid}-${++n}`;
      return {
        open: () => openStore(url, { service: 'contract', ttlSweepIntervalMs: 100 }),
        dispose: async () => undefined,
      };
    },
    { persistent: true, ttlDeletedWithinMs: 1_000 },
  );
});
