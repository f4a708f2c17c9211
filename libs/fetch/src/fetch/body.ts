// Rule 6 of outbound fetches (docs/security.md): the body is streamed, decompressed here (undici's request() does not), and
// the read is aborted as soon as the decompressed size passes the cap — a gzip bomb never inflates.
import { Duplex, pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import { FetchError, FetchTooLargeError } from './errors.js';

// Servers often cut the final block or send an empty compressed 304; browsers accept both, so do we.
const ZLIB_LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

export interface CappedBody {
  body: Buffer;
  truncated: boolean;
}

export async function readCappedBody(
  raw: Readable,
  head: { contentEncoding: string | undefined; contentLength: string | undefined },
  limits: { maxBytes: number; truncate: boolean },
): Promise<CappedBody> {
  let decoders: Duplex[];
  try {
    const codings = (head.contentEncoding ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
    if (codings.length === 0 && !limits.truncate && Number(head.contentLength) > limits.maxBytes) {
      throw new FetchTooLargeError(limits.maxBytes);
    }
    decoders = codings.reverse().map(decoderFor);
  } catch (err) {
    // undici reports the destroy as an abort error on the stream; nobody is reading it any more.
    raw.on('error', () => {}).destroy();
    throw err;
  }
  const last = decoders[decoders.length - 1];
  // Errors of any stage destroy the last one, so they surface in the loop below.
  if (last) pipeline([raw, ...decoders], () => {});
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of (last ?? raw) as AsyncIterable<Buffer>) {
    const room = limits.maxBytes - total;
    if (chunk.length > room) {
      if (!limits.truncate) throw new FetchTooLargeError(limits.maxBytes);
      chunks.push(chunk.subarray(0, room));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    total += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function decoderFor(coding: string): Duplex {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(ZLIB_LENIENT);
    case 'deflate':
      return inflateEitherForm();
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_LENIENT);
    default:
      throw new FetchError(`unsupported content-encoding "${coding}"`);
  }
}

/** HTTP "deflate" means zlib-wrapped, but some servers send raw deflate; the first byte tells them apart. */
function inflateEitherForm(): Duplex {
  return Duplex.from(async function* (source: AsyncIterable<Buffer>) {
    const rest = source[Symbol.asyncIterator]();
    const first = await rest.next();
    if (first.done) return;
    const isZlib = ((first.value[0] ?? 0) & 0x0f) === 0x08;
    const inflate = isZlib ? zlib.createInflate(ZLIB_LENIENT) : zlib.createInflateRaw(ZLIB_LENIENT);
    yield* pipeline(Readable.from(prepend(first.value, rest)), inflate, () => {}) as AsyncIterable<Buffer>;
  });
}

async function* prepend(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}
