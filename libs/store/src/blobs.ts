// The blob port: named byte objects (uploaded media) kept next to a service's store, chosen by the same
// URL. Implemented on files, in memory and on MongoDB GridFS; the contract suite in
// libs/store/test/blob-contract.ts runs against each and is the definition of this port.
import type { Readable } from 'node:stream';

export interface BlobPutOptions {
  /** Stored and returned as given (e.g. `image/png`). */
  contentType: string;
  /** Small string values kept with the blob (ids, original names); not interpreted. */
  metadata?: Record<string, string>;
  /** A body longer than this is refused with BlobTooLargeError and nothing is stored. */
  maxBytes?: number;
}

export interface BlobInfo {
  key: string;
  contentType: string;
  /** Bytes. */
  size: number;
  /** A strong HTTP entity tag, quotes included: equal bytes give equal tags. */
  etag: string;
  createdAt: Date;
  metadata: Record<string, string>;
}

export interface BlobObject extends BlobInfo {
  /** The bytes as a stream; each call opens a new one. Consume or destroy it. */
  stream(): Readable;
  /** The bytes at once (small blobs, tests). */
  bytes(): Promise<Buffer>;
}

export type BlobBody = Uint8Array | Readable | AsyncIterable<Uint8Array>;

export interface BlobStore {
  readonly kind: 'file' | 'memory' | 'gridfs';
  /**
   * Stores `body` under `key`, replacing what was there once the new bytes are complete: readers see
   * either the old blob or the new one, never a part.
   */
  put(key: string, body: BlobBody, options: BlobPutOptions): Promise<BlobInfo>;
  /** The blob, or null when there is none. */
  get(key: string): Promise<BlobObject | null>;
  /** The blob's description without opening its bytes, or null. */
  head(key: string): Promise<BlobInfo | null>;
  /** Removes the blob; false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Resolves when the storage answers (for /readyz). */
  ping(): Promise<void>;
  /** Releases connections; the store is unusable afterwards. Stored blobs stay (except plain `memory:`). */
  close(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`blob ${key} is larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class InvalidBlobKeyError extends TypeError {
  constructor(readonly key: string) {
    super(
      `invalid blob key ${JSON.stringify(key.slice(0, 80))}: use 1–512 characters of segments [A-Za-z0-9._-] joined by "/", no "." or ".." segments`,
    );
    this.name = 'InvalidBlobKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;
export const MAX_BLOB_KEY_LENGTH = 512;

/**
 * Keys become file paths in the file adapter, so they are held to a shape that cannot leave the blob
 * directory or name a hidden control file: relative, `/`-separated, no empty, `.` or `..` segments.
 */
export function assertBlobKey(key: string): void {
  const ok =
    typeof key === 'string' &&
    key.length >= 1 &&
    key.length <= MAX_BLOB_KEY_LENGTH &&
    key.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
  if (!ok) throw new InvalidBlobKeyError(String(key));
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(;[\\x20-\\x7e]*)?$`);

/** A media type with optional parameters, printable ASCII only (it becomes a response header). */
export function assertContentType(contentType: string): void {
  if (typeof contentType !== 'string' || contentType.length > 255 || !CONTENT_TYPE.test(contentType))
    throw new TypeError(`invalid blob content type ${JSON.stringify(String(contentType).slice(0, 80))}`);
}

const METADATA_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Metadata is a small flat map of strings; keys stay clear of MongoDB's `$` and `.`. */
export function assertMetadata(metadata: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (metadata === undefined) return out;
  const entries = Object.entries(metadata);
  if (entries.length > 32) throw new TypeError('blob metadata: at most 32 entries');
  for (const [k, v] of entries) {
    if (!METADATA_KEY.test(k) || typeof v !== 'string' || v.length > 1024)
      throw new TypeError(
        `blob metadata ${JSON.stringify(k)}: keys [A-Za-z][A-Za-z0-9_-]*, string values ≤ 1024`,
      );
    out[k] = v;
  }
  return out;
}
