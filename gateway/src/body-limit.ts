// Body limits per route. A declared Content-Length is checked before anything is
// read; a chunked body is counted while it streams to the service and cut off at the limit, so a
// large upload never sits in gateway memory and an oversized one never reaches the service whole.
import { Transform, type TransformCallback } from 'node:stream';
import { payloadTooLarge, type AppError } from '@murmur/core';

export class BodyLimitExceeded extends Error {
  constructor(readonly limit: number) {
    super(`Request body is larger than ${limit} bytes.`);
    this.name = 'BodyLimitExceeded';
  }
}

export function bodyTooLarge(limit: number): AppError {
  return payloadTooLarge(`Request body is too large (limit ${formatBytes(limit)}).`);
}

function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** True when the request declares a length above the limit. */
export function declaredLengthExceeds(contentLength: string | undefined, limit: number): boolean {
  if (contentLength === undefined) return false;
  const n = Number(contentLength);
  return Number.isFinite(n) && n > limit;
}

/** A pass-through that fails with BodyLimitExceeded once more than `limit` bytes went through. */
export function countingLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) done(new BodyLimitExceeded(limit));
      else done(null, chunk);
    },
  });
}

/** Whether an upstream failure was caused by our own body limit (undici wraps the stream error). */
export function findBodyLimitCause(err: unknown): BodyLimitExceeded | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof BodyLimitExceeded) return e;
  }
  return null;
}
