// SQLite's page cache is memory a service's store may take as it reads: 64 MiB by default, less when
// asked (STORE_CACHE_MIB; the single process runs eight stores and gives each 16 MiB,
// docs/operations.md "Memory"). Read back from the connection itself.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { SqliteFile } from '../src/sqlite-file.js';

describe('the page cache ceiling of a SQLite store file', () => {
  it('is 64 MiB unless a ceiling is given, then that one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'murmur-cache-ceiling-'));
    try {
      const plain = new SqliteFile(join(dir, 'a.sqlite'), { fsync: false });
      const small = new SqliteFile(join(dir, 'b.sqlite'), { fsync: false, cacheMiB: 16 });
      // Negative cache_size is KiB.
      expect(plain.db.pragma('cache_size', { simple: true })).toBe(-64 * 1024);
      expect(small.db.pragma('cache_size', { simple: true })).toBe(-16 * 1024);
      await plain.close();
      await small.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
