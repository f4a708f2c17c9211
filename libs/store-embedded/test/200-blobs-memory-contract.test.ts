// The blob contract in memory: `memory:` (private) and `memory:<name>` (shared by name, survives close).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { openBlobStore } from '@murmur/runtime';
import { defineBlobContract } from '../../store/test/blob-contract.js';

describe('memory: blobs', () => {
  defineBlobContract(
    () => ({ open: () => openBlobStore('memory:', { service: 'contract' }), dispose: async () => undefined }),
    { persistent: false },
  );
});

describe('memory:<name> blobs', () => {
  defineBlobContract(
    () => {
      const url = `memory:${randomUUID()}`;
      return { open: () => openBlobStore(url, { service: 'contract' }), dispose: async () => undefined };
    },
    { persistent: true },
  );

  it('shares one name between stores of one service only', async () => {
    const url = `memory:${randomUUID()}`;
    const a = await openBlobStore(url, { service: 'one' });
    const b = await openBlobStore(url, { service: 'one' });
    const other = await openBlobStore(url, { service: 'two' });
    const plain = await openBlobStore('memory:', { service: 'one' });
    await a.put('k', Buffer.from('v'), { contentType: 'text/plain' });
    expect(await b.head('k')).not.toBeNull();
    expect(await other.head('k')).toBeNull();
    expect(await plain.head('k')).toBeNull();
  });
});
