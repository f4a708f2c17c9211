// Blobs as files: `<dir>/<service>/blobs/data/<key>` holds the bytes and `…/blobs/meta/<key>.json` their
// description; the directories of a key's leading segments end in `+` (a character keys cannot hold), so
// keys `a` and `a/b` never fight over one path. A put writes both to temporary files first and renames them into place, so a reader sees
// a whole old or a whole new blob, and a refused or failed upload leaves nothing behind.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import {
  BodyMeter,
  chunksOf,
  assertBlobKey,
  assertContentType,
  assertMetadata,
  type BlobBody,
  type BlobInfo,
  type BlobObject,
  type BlobPutOptions,
  type BlobStore,
} from '@murmur/store';

interface MetaFile {
  contentType: string;
  size: number;
  etag: string;
  createdAt: string;
  metadata: Record<string, string>;
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export class FileBlobStore implements BlobStore {
  readonly kind = 'file' as const;
  private closed = false;

  private constructor(private readonly root: string) {}

  /** `dir` is the data directory of STORE_URL (`file:<dir>`); blobs go under `<dir>/<service>/blobs/`. */
  static async open(options: { dir: string; service: string }): Promise<FileBlobStore> {
    const root = join(options.dir, options.service, 'blobs');
    await mkdir(join(root, 'tmp'), { recursive: true });
    return new FileBlobStore(root);
  }

  /** The directory this store writes under (for operators and tests). */
  get directory(): string {
    return this.root;
  }

  private pathOf(area: 'data' | 'meta', key: string): string {
    const segments = key.split('/');
    const last = segments.pop()!;
    return join(this.root, area, ...segments.map((s) => `${s}+`), last);
  }

  private dataPath(key: string): string {
    return this.pathOf('data', key);
  }

  private metaPath(key: string): string {
    return `${this.pathOf('meta', key)}.json`;
  }

  private check(key: string): void {
    if (this.closed) throw new Error('blob store is closed');
    assertBlobKey(key);
  }

  async put(key: string, body: BlobBody, options: BlobPutOptions): Promise<BlobInfo> {
    this.check(key);
    assertContentType(options.contentType);
    const metadata = assertMetadata(options.metadata);
    const tmp = join(this.root, 'tmp', randomBytes(12).toString('hex'));
    const meter = new BodyMeter(key, options.maxBytes);
    const out = createWriteStream(`${tmp}.data`, { flags: 'wx' });
    try {
      for await (const chunk of chunksOf(body)) {
        meter.add(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      const info: BlobInfo = {
        key,
        contentType: options.contentType,
        size: meter.size,
        etag: meter.etag(),
        createdAt: new Date(),
        metadata,
      };
      const meta: MetaFile = { ...info, createdAt: info.createdAt.toISOString() };
      await writeFile(`${tmp}.json`, JSON.stringify(meta), { flag: 'wx' });
      await mkdir(dirname(this.dataPath(key)), { recursive: true });
      await mkdir(dirname(this.metaPath(key)), { recursive: true });
      // Bytes first: a reader that finds the new description also finds the new bytes.
      await rename(`${tmp}.data`, this.dataPath(key));
      await rename(`${tmp}.json`, this.metaPath(key));
      return info;
    } catch (err) {
      // The stream opens its file asynchronously: refused at the first chunk, the file may be created
      // after this point unless the stream has closed first (a temporary file was left behind in CI).
      const closed = out.closed ? Promise.resolve() : once(out, 'close').then(() => undefined);
      out.destroy();
      await closed.catch(() => undefined);
      await rm(`${tmp}.data`, { force: true });
      await rm(`${tmp}.json`, { force: true });
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    this.check(key);
    let text: string;
    try {
      text = await readFile(this.metaPath(key), 'utf8');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const meta = JSON.parse(text) as MetaFile;
    return {
      key,
      contentType: meta.contentType,
      size: meta.size,
      etag: meta.etag,
      createdAt: new Date(meta.createdAt),
      metadata: meta.metadata,
    };
  }

  async get(key: string): Promise<BlobObject | null> {
    const info = await this.head(key);
    if (!info) return null;
    const path = this.dataPath(key);
    return {
      ...info,
      stream: () => createReadStream(path),
      bytes: () => readFile(path),
    };
  }

  async delete(key: string): Promise<boolean> {
    this.check(key);
    let existed = true;
    // The description goes first: once it is gone the blob is gone for readers.
    await unlink(this.metaPath(key)).catch((err: unknown) => {
      if (!isMissing(err)) throw err;
      existed = false;
    });
    await rm(this.dataPath(key), { force: true });
    return existed;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('blob store is closed');
    await access(join(this.root, 'tmp'));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
