// JSON Feed 1 and 1.1 exports (docs/api/archive.md "Importing"): UTF-8 JSON with the platform's body
// rules (nesting ≤ 20, `__proto__`/`constructor`/`prototype` dropped), a `version` of either
// jsonfeed.org URL and an `items` array. Numeric ids are coerced to strings by items.ts.
//
// An export may be up to the upload limit (100 MiB) and hold hundreds of thousands of items: one
// JSON.parse of it held the event loop for seconds (2.8 s for 500,000 items, issue 37), and even
// decoding 6 MB into one string took 80 ms. So the bytes themselves are checked and scanned in slices,
// with the event loop turning between them (JSON's structure is ASCII, which UTF-8 never uses inside a
// multi-byte character): the scan checks nesting and counts objects, and finds the byte span of each
// element of the top-level `items` array; then the rest of the document (its metadata, at most 1 MiB)
// and each item are decoded and parsed on their own, a few at a time.
import { isUtf8 } from 'node:buffer';
import { MAX_JSON_DEPTH } from '@murmur/http';
import type { RawItem } from '../items.js';
import { ImportError } from './errors.js';

const VERSIONS = /^https?:\/\/jsonfeed\.org\/version\/1(\.1)?\/?$/;

/**
 * Objects a JSON Feed may hold (items and what they contain). A 100 MiB file of `{}` would be tens of
 * millions of them, gigabytes once parsed: counted first, in one pass, so such a file fails the import
 * instead of the process.
 */
export const MAX_JSON_OBJECTS = 2_000_000;

/** The document without its items (title, home page, authors…): metadata, never this large. */
export const MAX_FEED_METADATA_BYTES = 1024 * 1024;

/** Bytes checked or scanned between two turns of the event loop. */
const SLICE = 256 * 1024;
/** Items parsed between two turns of the event loop. */
const ITEMS_PER_TURN = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Keys JSON.parse would make own properties of these names: dropped from the metadata, as in every JSON
 * body. Items need no reviver (it would double their parse): rawItem reads named fields only.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const reviver = (key: string, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value);

/** The bytes as a Buffer (no copy), without a leading UTF-8 byte order mark. */
function withoutBom(bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? buffer.subarray(3) : buffer;
}

/**
 * Valid UTF-8, or refused, never guessed: checked natively a slice per turn of the event loop, each
 * slice cut where a character starts (a byte that is not 10xxxxxx), so no character is split.
 */
async function refuseInvalidUtf8(buffer: Buffer, what: string): Promise<void> {
  let at = 0;
  while (at < buffer.length) {
    let end = Math.min(buffer.length, at + SLICE);
    while (end < buffer.length && (buffer[end]! & 0xc0) === 0x80) end--;
    if (end === at) end = Math.min(buffer.length, at + SLICE); // no character starts within: invalid anyway
    if (!isUtf8(buffer.subarray(at, end))) throw new ImportError(`${what} is not valid UTF-8.`);
    at = end;
    if (at < buffer.length) await nextTurn();
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

interface Layout {
  /** The document with its items array emptied. */
  metadata: string;
  /** Start and end (exclusive) of each item's bytes, flat: [start0, end0, start1, end1, …]. */
  spans: number[];
}

/**
 * One pass over the text, in slices: nesting and object count checked, the top-level `items` array
 * found and the span of each of its elements recorded. Malformed JSON is left for JSON.parse to name.
 */
async function layoutOf(text: Buffer, what: string): Promise<Layout> {
  let depth = 0;
  let objects = 0;
  let inString = false;
  // Top level: whether the next string is a key, where it starts, and the key whose value comes next.
  let expectKey = false;
  let keyStart = -1;
  let key: string | null = null;
  let valueKey: string | null = null;
  let itemsOpen = -1;
  let itemsClose = -1;
  let inItems = false;
  let elementStart = -1;
  const spans: number[] = [];
  const endElement = (end: number) => {
    if (elementStart < 0) return;
    let e = end;
    while (e > elementStart && isSpace(text[e - 1]!)) e--;
    spans.push(elementStart, e);
    elementStart = -1;
  };
  for (let from = 0; from < text.length; from += SLICE) {
    if (from > 0) await nextTurn();
    const to = Math.min(text.length, from + SLICE);
    for (let i = from; i < to; i++) {
      const c = text[i]!;
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) {
          inString = false;
          if (keyStart >= 0) {
            key = i + 1 - keyStart <= 64 ? keyOf(text.toString('utf8', keyStart, i + 1)) : null;
            keyStart = -1;
          }
        }
        continue;
      }
      if (isSpace(c)) continue;
      if (inItems && depth === 2 && elementStart < 0 && c !== COMMA && c !== CLOSE_ARRAY) elementStart = i;
      switch (c) {
        case QUOTE:
          inString = true;
          if (depth === 1 && expectKey) {
            keyStart = i;
            expectKey = false;
          }
          break;
        case COLON:
          if (depth === 1) valueKey = key;
          break;
        case COMMA:
          if (depth === 1) {
            expectKey = true;
            valueKey = null;
          } else if (inItems && depth === 2) endElement(i);
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (c === OPEN_OBJECT && ++objects > MAX_JSON_OBJECTS) {
            throw new ImportError(
              `${what} holds more than ${MAX_JSON_OBJECTS} objects; split it into several imports.`,
            );
          }
          if (depth === 1 && c === OPEN_ARRAY && valueKey === 'items') {
            if (itemsOpen >= 0) throw new ImportError(`${what} has two "items" arrays.`);
            itemsOpen = i;
            inItems = true;
          }
          if (++depth > MAX_JSON_DEPTH) {
            throw new ImportError(`${what} is not valid JSON: nested deeper than ${MAX_JSON_DEPTH} levels.`);
          }
          if (depth === 1 && c === OPEN_OBJECT) expectKey = true;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          if (inItems && depth === 2 && c === CLOSE_ARRAY) {
            endElement(i);
            inItems = false;
            itemsClose = i;
          }
          depth--;
          break;
      }
    }
  }
  // An items array never closed is malformed JSON: the metadata's parse names it.
  const metadataBytes =
    itemsOpen < 0 ? text.length : itemsClose < 0 ? itemsOpen + 1 : itemsOpen + 1 + (text.length - itemsClose);
  if (metadataBytes > MAX_FEED_METADATA_BYTES) {
    throw new ImportError(
      `${what} holds more than ${MAX_FEED_METADATA_BYTES / (1024 * 1024)} MiB besides its items; only items may be that large.`,
    );
  }
  const metadata =
    itemsOpen < 0
      ? text.toString('utf8')
      : text.toString('utf8', 0, itemsOpen + 1) + (itemsClose < 0 ? '' : text.toString('utf8', itemsClose));
  return { metadata, spans };
}

/** A key's JSON string literal read; a broken one names no key (the metadata's parse reports it). */
function keyOf(literal: string): string | null {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

function parsed(text: string, what: string, revive = false): unknown {
  try {
    return revive ? JSON.parse(text, reviver) : JSON.parse(text);
  } catch (err) {
    throw new ImportError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The items of a JSON Feed, a batch at a time (ITEMS_PER_TURN), with the event loop turning between
 * batches: the whole document is checked before the first batch, and a caller that stores each batch
 * as it comes keeps no more than one batch of parsed items alive.
 */
export async function* jsonFeedItems(bytes: Uint8Array, what = 'The JSON Feed'): AsyncGenerator<RawItem[]> {
  const text = withoutBom(bytes);
  await refuseInvalidUtf8(text, what);
  await nextTurn();
  const { metadata, spans } = await layoutOf(text, what);
  const doc = parsed(metadata, what, true);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ImportError(`${what} is not a JSON Feed (not an object).`);
  }
  const feed = doc as Record<string, unknown>;
  if (typeof feed.version !== 'string' || !VERSIONS.test(feed.version)) {
    throw new ImportError(`${what} is not a JSON Feed (no jsonfeed.org version).`);
  }
  if (!Array.isArray(feed.items)) throw new ImportError(`${what} has no items array.`);
  for (let k = 0; k < spans.length; k += 2 * ITEMS_PER_TURN) {
    if (k > 0) await nextTurn();
    const batch: RawItem[] = [];
    for (let j = k; j < Math.min(spans.length, k + 2 * ITEMS_PER_TURN); j += 2) {
      batch.push(rawItem(parsed(text.toString('utf8', spans[j]!, spans[j + 1]!), what)));
    }
    yield batch;
  }
}

/** All the items of a JSON Feed (jsonFeedItems, collected). */
export async function parseJsonFeed(bytes: Uint8Array, what = 'The JSON Feed'): Promise<RawItem[]> {
  const items: RawItem[] = [];
  for await (const batch of jsonFeedItems(bytes, what)) items.push(...batch);
  return items;
}

function rawItem(entry: unknown): RawItem {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return {};
  const item = entry as Record<string, unknown>;
  return {
    id: item.id,
    url: item.url,
    title: item.title,
    contentHtml: item.content_html,
    contentText: item.content_text,
    published: item.date_published,
    modified: item.date_modified,
    tags: item.tags,
    image: item.image,
  };
}
