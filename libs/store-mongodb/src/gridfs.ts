// Blobs in MongoDB GridFS (distributed mode): bucket `blobs` in the service's database (`murmur_<service>`
// unless the URL names one). A file document only becomes visible once its upload has finished and its
// ETag is written; older versions of the same key are removed after that, so readers never see a part.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { GridFSBucket, MongoClient, type Db, type GridFSFile } from 'mongodb';
import { databaseNameFromUrl } from './mongodb.js';
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

const BUCKET = 'blobs';

interface StoredMetadata {
  contentType: string;
  etag?: string;
  custom: Record<string, string>;
}

export class GridFsBlobStore implements BlobStore {
  readonly kind = 'gridfs' as const;
  private readonly bucket: GridFSBucket;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: BUCKET });
  }

  static async connect(
    url: string,
    options: { service: string; database?: string },
  ): Promise<GridFsBlobStore> {
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    const name = options.database ?? databaseNameFromUrl(url) ?? `murmur_${options.service}`;
    const db = client.db(name);
    await db.collection(`${BUCKET}.files`).createIndex({ filename: 1, uploadDate: -1 });
    return new GridFsBlobStore(client, db);
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  /** The newest complete version of `key`. */
  private async current(key: string): Promise<GridFSFile | null> {
    assertBlobKey(key);
    const files = await this.bucket
      .find(
        { filename: key, 'metadata.etag': { $exists: true } },
        { sort: { uploadDate: -1, _id: -1 }, limit: 1 },
      )
      .toArray();
    return files[0] ?? null;
  }

  private infoOf(file: GridFSFile): BlobInfo {
    const meta = file.metadata as StoredMetadata;
    return {
      key: file.filename,
      contentType: meta.contentType,
      size: file.length,
      etag: meta.etag!,
      createdAt: file.uploadDate,
      metadata: { ...meta.custom },
    };
  }

  async put(key: string, body: BlobBody, options: BlobPutOptions): Promise<BlobInfo> {
    assertBlobKey(key);
    assertContentType(options.contentType);
    const custom = assertMetadata(options.metadata);
    const metadata: StoredMetadata = { contentType: options.contentType, custom };
    const upload = this.bucket.openUploadStream(key, { metadata });
    // The stream may fail while nobody waits on it (a write it buffered fails after an abort, or the
    // connection drops between chunks): an 'error' without a listener would take the process down.
    let failure: unknown;
    upload.on('error', (err) => {
      failure ??= err;
    });
    const meter = new BodyMeter(key, options.maxBytes);
    try {
      for await (const chunk of chunksOf(body)) {
        if (failure) throw failure;
        meter.add(chunk);
        if (!upload.write(chunk)) await once(upload, 'drain');
      }
      if (failure) throw failure;
      upload.end();
      await finished(upload);
    } catch (err) {
      // Removes the chunks written so far; the file document was never inserted.
      await upload.abort().catch(() => undefined);
      throw err;
    }
    const etag = meter.etag();
    const files = this.db.collection<GridFSFile>(`${BUCKET}.files`);
    await files.updateOne({ _id: upload.id }, { $set: { 'metadata.etag': etag } });
    const stored = await files.findOne({ _id: upload.id });
    const older = await this.bucket.find({ filename: key, _id: { $ne: upload.id } }).toArray();
    for (const file of older) {
      // Only versions uploaded before this one: a newer concurrent put wins.
      if (stored && file.uploadDate <= stored.uploadDate)
        await this.bucket.delete(file._id).catch(() => undefined);
    }
    return {
      key,
      contentType: options.contentType,
      size: meter.size,
      etag,
      createdAt: stored?.uploadDate ?? new Date(),
      metadata: custom,
    };
  }

  async head(key: string): Promise<BlobInfo | null> {
    const file = await this.current(key);
    return file ? this.infoOf(file) : null;
  }

  async get(key: string): Promise<BlobObject | null> {
    const file = await this.current(key);
    if (!file) return null;
    const id = file._id;
    const stream = () => this.bucket.openDownloadStream(id);
    return {
      ...this.infoOf(file),
      stream,
      bytes: async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream()) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
    };
  }

  async delete(key: string): Promise<boolean> {
    assertBlobKey(key);
    const files = await this.bucket.find({ filename: key }).toArray();
    let existed = false;
    for (const file of files) {
      if ((file.metadata as StoredMetadata | undefined)?.etag !== undefined) existed = true;
      await this.bucket.delete(file._id).catch(() => undefined);
    }
    return existed;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Drops the whole database. For tests. */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }
}
