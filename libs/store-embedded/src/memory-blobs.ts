// Blobs in memory: `memory:` is private to one store; `memory:<name>` is shared by every store opened
// with that name and service in this process and outlives close() (a "restart" in tests).
import { Readable } from 'node:stream';
import {
  readAll,
  assertBlobKey,
  assertContentType,
  assertMetadata,
  type BlobBody,
  type BlobInfo,
  type BlobObject,
  type BlobPutOptions,
  type BlobStore,
} from '@murmur/store';

interface Entry {
  info: BlobInfo;
  bytes: Buffer;
}

const shared = new Map<string, Map<string, Entry>>();

function copyInfo(info: BlobInfo): BlobInfo {
  return { ...info, createdAt: new Date(info.createdAt), metadata: { ...info.metadata } };
}

export class MemoryBlobStore implements BlobStore {
  readonly kind = 'memory' as const;
  private closed = false;

  private constructor(private readonly entries: Map<string, Entry>) {}

  static open(options: { service: string; name?: string }): MemoryBlobStore {
    if (!options.name) return new MemoryBlobStore(new Map());
    const id = `${options.service}\u0000${options.name}`;
    let entries = shared.get(id);
    if (!entries) shared.set(id, (entries = new Map()));
    return new MemoryBlobStore(entries);
  }

  private check(): void {
    if (this.closed) throw new Error('blob store is closed');
  }

  async put(key: string, body: BlobBody, options: BlobPutOptions): Promise<BlobInfo> {
    this.check();
    assertBlobKey(key);
    assertContentType(options.contentType);
    const metadata = assertMetadata(options.metadata);
    const { bytes, size, etag } = await readAll(key, body, options.maxBytes);
    const info: BlobInfo = {
      key,
      contentType: options.contentType,
      size,
      etag,
      createdAt: new Date(),
      metadata,
    };
    this.entries.set(key, { info, bytes });
    return copyInfo(info);
  }

  async get(key: string): Promise<BlobObject | null> {
    this.check();
    assertBlobKey(key);
    const entry = this.entries.get(key);
    if (!entry) return null;
    const { bytes } = entry;
    return {
      ...copyInfo(entry.info),
      stream: () => Readable.from([bytes], { objectMode: false }),
      bytes: async () => Buffer.from(bytes),
    };
  }

  async head(key: string): Promise<BlobInfo | null> {
    this.check();
    assertBlobKey(key);
    const entry = this.entries.get(key);
    return entry ? copyInfo(entry.info) : null;
  }

  async delete(key: string): Promise<boolean> {
    this.check();
    assertBlobKey(key);
    return this.entries.delete(key);
  }

  async ping(): Promise<void> {
    this.check();
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
