// Reading a blob body of any accepted form once, hashing and counting it on the way, so every adapter
// computes the same ETag and enforces `maxBytes` while the bytes arrive (never after buffering them).
import { createHash, type Hash } from 'node:crypto';
import { BlobTooLargeError, type BlobBody } from './blobs.js';

export async function* chunksOf(body: BlobBody): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  for await (const chunk of body as AsyncIterable<unknown>) {
    if (chunk instanceof Uint8Array) yield chunk;
    else if (typeof chunk === 'string') yield Buffer.from(chunk);
    else throw new TypeError('blob body chunks must be bytes');
  }
}

/** Counts and hashes bytes; throws BlobTooLargeError as soon as they pass `maxBytes`. */
export class BodyMeter {
  size = 0;
  private readonly hash: Hash = createHash('sha256');

  constructor(
    private readonly key: string,
    private readonly maxBytes: number | undefined,
  ) {}

  add(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    if (this.maxBytes !== undefined && this.size > this.maxBytes)
      throw new BlobTooLargeError(this.key, this.maxBytes);
    this.hash.update(chunk);
  }

  /** The strong ETag of the bytes seen: a quoted base64url SHA-256. */
  etag(): string {
    return `"${this.hash.digest('base64url')}"`;
  }
}

/** Collects a body into one buffer (memory adapter). */
export async function readAll(key: string, body: BlobBody, maxBytes: number | undefined) {
  const meter = new BodyMeter(key, maxBytes);
  const chunks: Uint8Array[] = [];
  for await (const chunk of chunksOf(body)) {
    meter.add(chunk);
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), size: meter.size, etag: meter.etag() };
}
