// The blob contract on files, plus where the files go: `<dir>/<service>/blobs/`, and no leftovers from a
// refused upload.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { openBlobStore } from '@murmur/runtime';
import { BlobTooLargeError } from '@murmur/store';
import { defineBlobContract } from '../../store/test/blob-contract.js';

describe('file: blobs', () => {
  defineBlobContract(
    () => {
      const dir = mkdtemp(join(tmpdir(), 'murmur-blobs-'));
      return {
        open: async () => openBlobStore(`file:${await dir}`, { service: 'contract' }),
        dispose: async () => rm(await dir, { recursive: true, force: true }),
      };
    },
    { persistent: true },
  );

  it('writes under <dir>/<service>/blobs/ and leaves no temporary file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'murmur-blobs-'));
    try {
      const blobs = await openBlobStore(pathToFileURL(dir).href, { service: 'publishing' });
      await blobs.put('3/2026/x-photo.png', Buffer.from('png'), { contentType: 'image/png' });
      await expect(
        blobs.put('3/2026/y.png', Buffer.alloc(20), { contentType: 'image/png', maxBytes: 10 }),
      ).rejects.toThrow(BlobTooLargeError);
      const root = join(dir, 'publishing', 'blobs');
      expect((await readdir(join(root, 'data', '3+', '2026+'))).sort()).toEqual(['x-photo.png']);
      expect(await readdir(join(root, 'tmp'))).toEqual([]);
      await blobs.close();
      await expect(blobs.get('3/2026/x-photo.png')).rejects.toThrow(/closed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses URLs it does not know', async () => {
    await expect(openBlobStore('redis://x', { service: 's' })).rejects.toThrow(/unsupported blob store URL/);
    await expect(openBlobStore('file:', { service: 's' })).rejects.toThrow(/needs a directory/);
  });
});
