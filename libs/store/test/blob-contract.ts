// The blob contract: what every adapter of the blob port must do (port.ts). Each adapter's test file runs it
// through a harness that can open the same storage again after close().
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BlobTooLargeError, InvalidBlobKeyError, type BlobStore } from '../src/blobs.js';

export interface BlobHarness {
  /** Opens the storage under test; after close(), opens the same storage again. */
  open(): Promise<BlobStore>;
  dispose(): Promise<void>;
}

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

export function defineBlobContract(makeHarness: () => BlobHarness, options: { persistent: boolean }): void {
  let harness: BlobHarness;
  let blobs: BlobStore;

  beforeEach(async () => {
    harness = makeHarness();
    blobs = await harness.open();
  });
  afterEach(async () => {
    await blobs.close();
    await harness.dispose();
  });

  describe('put and get', () => {
    it('returns the stored bytes, type, size, ETag, time and metadata', async () => {
      const before = Date.now();
      const info = await blobs.put('7/2026/abc-photo.png', PNG, {
        contentType: 'image/png',
        metadata: { mediaId: 'm1', name: 'photo.png' },
      });
      expect(info).toMatchObject({ key: '7/2026/abc-photo.png', contentType: 'image/png', size: PNG.length });
      expect(info.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(info.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

      const blob = await blobs.get('7/2026/abc-photo.png');
      expect(blob).not.toBeNull();
      expect(blob!.contentType).toBe('image/png');
      expect(blob!.size).toBe(PNG.length);
      expect(blob!.etag).toBe(info.etag);
      expect(blob!.metadata).toEqual({ mediaId: 'm1', name: 'photo.png' });
      expect(blob!.createdAt.getTime()).toBe(info.createdAt.getTime());
      expect(await blob!.bytes()).toEqual(PNG);
      expect(await readStream(blob!.stream())).toEqual(PNG);
      expect(await blobs.head('7/2026/abc-photo.png')).toEqual({
        key: info.key,
        contentType: info.contentType,
        size: info.size,
        etag: info.etag,
        createdAt: info.createdAt,
        metadata: info.metadata,
      });
    });

    it('takes a stream or an async iterable and stores several megabytes intact', async () => {
      const part = Buffer.alloc(256 * 1024, 7);
      const parts = Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from([i]), part]));
      await blobs.put('big/one', Readable.from(parts), { contentType: 'application/octet-stream' });
      async function* generate() {
        for (const p of parts) yield p;
      }
      await blobs.put('big/two', generate(), { contentType: 'application/octet-stream' });
      const expected = Buffer.concat(parts);
      expect((await (await blobs.get('big/one'))!.bytes()).equals(expected)).toBe(true);
      const two = await blobs.get('big/two');
      expect(two!.size).toBe(expected.length);
      expect((await readStream(two!.stream())).equals(expected)).toBe(true);
    });

    it('gives equal bytes equal ETags and different bytes different ones; an empty blob is allowed', async () => {
      const a = await blobs.put('a', Buffer.from('same'), { contentType: 'text/plain' });
      const b = await blobs.put('b', Buffer.from('same'), { contentType: 'text/plain; charset=utf-8' });
      const c = await blobs.put('c', Buffer.from('other'), { contentType: 'text/plain' });
      expect(a.etag).toBe(b.etag);
      expect(c.etag).not.toBe(a.etag);
      const empty = await blobs.put('empty', new Uint8Array(0), { contentType: 'text/plain' });
      expect(empty.size).toBe(0);
      expect((await (await blobs.get('empty'))!.bytes()).length).toBe(0);
      expect((await blobs.get('b'))!.contentType).toBe('text/plain; charset=utf-8');
    });

    it('answers null for a key never stored', async () => {
      expect(await blobs.get('nothing/here')).toBeNull();
      expect(await blobs.head('nothing/here')).toBeNull();
    });

    it('keeps a key and the keys below it apart', async () => {
      await blobs.put('a', Buffer.from('top'), { contentType: 'text/plain' });
      await blobs.put('a/b', Buffer.from('below'), { contentType: 'text/plain' });
      await blobs.put('a.json', Buffer.from('json'), { contentType: 'text/plain' });
      expect((await (await blobs.get('a'))!.bytes()).toString()).toBe('top');
      expect((await (await blobs.get('a/b'))!.bytes()).toString()).toBe('below');
      expect((await (await blobs.get('a.json'))!.bytes()).toString()).toBe('json');
    });
  });

  describe('replace and delete', () => {
    it('replaces a blob with a new version', async () => {
      await blobs.put('k', Buffer.from('one'), { contentType: 'text/plain', metadata: { v: '1' } });
      await blobs.put('k', Buffer.from('two!'), { contentType: 'image/gif', metadata: { v: '2' } });
      const blob = await blobs.get('k');
      expect(blob).toMatchObject({ contentType: 'image/gif', size: 4, metadata: { v: '2' } });
      expect((await blob!.bytes()).toString()).toBe('two!');
    });

    it('deletes: true when the blob existed, false otherwise; then it is gone', async () => {
      await blobs.put('x/y', Buffer.from('bye'), { contentType: 'text/plain' });
      expect(await blobs.delete('x/y')).toBe(true);
      expect(await blobs.get('x/y')).toBeNull();
      expect(await blobs.delete('x/y')).toBe(false);
      expect(await blobs.delete('never')).toBe(false);
    });
  });

  describe('limits and keys', () => {
    it('refuses a body over maxBytes and stores nothing, keeping the previous version', async () => {
      await blobs.put('limited', Buffer.from('old'), { contentType: 'text/plain' });
      const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
      await expect(blobs.put('limited', big, { contentType: 'text/plain', maxBytes: 1000 })).rejects.toThrow(
        BlobTooLargeError,
      );
      await expect(
        blobs.put('fresh', Buffer.alloc(1001), { contentType: 'text/plain', maxBytes: 1000 }),
      ).rejects.toThrow(BlobTooLargeError);
      expect((await (await blobs.get('limited'))!.bytes()).toString()).toBe('old');
      expect(await blobs.get('fresh')).toBeNull();
      const exact = await blobs.put('exact', Buffer.alloc(1000), {
        contentType: 'text/plain',
        maxBytes: 1000,
      });
      expect(exact.size).toBe(1000);
    });

    it.each(['', '/abs', 'a//b', '../up', 'a/../b', 'a/./b', '.', 'sp ace', 'a\\b', 'ü', 'x'.repeat(513)])(
      'refuses the key %j',
      async (key) => {
        await expect(blobs.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
          InvalidBlobKeyError,
        );
        await expect(blobs.get(key)).rejects.toThrow(InvalidBlobKeyError);
        await expect(blobs.delete(key)).rejects.toThrow(InvalidBlobKeyError);
      },
    );

    it('refuses a content type that could break a header, and metadata that is not flat strings', async () => {
      await expect(blobs.put('k', Buffer.from('x'), { contentType: 'text/html\r\nx: y' })).rejects.toThrow(
        TypeError,
      );
      await expect(blobs.put('k', Buffer.from('x'), { contentType: 'nonsense' })).rejects.toThrow(TypeError);
      await expect(
        blobs.put('k', Buffer.from('x'), { contentType: 'text/plain', metadata: { $where: 'x' } }),
      ).rejects.toThrow(TypeError);
      expect(await blobs.get('k')).toBeNull();
    });
  });

  describe('lifecycle', () => {
    it('answers ping while open', async () => {
      await expect(blobs.ping()).resolves.toBeUndefined();
    });

    if (options.persistent) {
      it('keeps blobs across close and open', async () => {
        const info = await blobs.put('kept/1', PNG, { contentType: 'image/png', metadata: { a: 'b' } });
        await blobs.close();
        blobs = await harness.open();
        const blob = await blobs.get('kept/1');
        expect(blob).toMatchObject({
          contentType: 'image/png',
          size: PNG.length,
          etag: info.etag,
          metadata: { a: 'b' },
        });
        expect(blob!.createdAt.getTime()).toBe(info.createdAt.getTime());
        expect(await blob!.bytes()).toEqual(PNG);
      });
    }
  });
}
