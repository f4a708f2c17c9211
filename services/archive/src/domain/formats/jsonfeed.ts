// JSON Feed 1 and 1.1 exports (docs/api/archive.md "Importing"): UTF-8 JSON with the platform's body
// rules (nesting ≤ 20, `__proto__`/`constructor`/`prototype` dropped), a `version` of either
// jsonfeed.org URL and an `items` array. Numeric ids are coerced to strings by items.ts.
//
// An export may be up to the upload limit (100 MiB) and hold hundreds of thousands of items: one
// JSON.parse of it held the event loop for seconds (2.8 s for 500,000 items, issue 37). So the text is
// decoded and scanned in slices, with the event loop turning between them: the scan checks nesting and
// counts objects, and finds the span of each element of the top-level `items` array; then the rest of
// the document (its metadata, at most 1 MiB) and each item are parsed on their own, a few at a time.
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
export const MAX_FEED_METADATA_CHARS = 1024 * 1024;

/** Bytes decoded, or characters scanned, between two turns of the event loop. */
const SLICE = 1024 * 1024;
/** Items parsed between two turns of the event loop. */
const ITEMS_PER_TURN = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Keys JSON.parse would make own properties of these names: dropped from the metadata, as in every JSON
 * body. Items need no reviver (it would double their parse): rawItem reads named fields only.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const reviver = (key: string, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value);

/**
 * Bytes as UTF-8 text (a leading BOM dropped); anything else is refused, never guessed. Validated in one
 * native pass, then decoded a slice per turn of the event loop, each cut on a character boundary.
 */
export async function utf8(bytes: Uint8Array, what: string): Promise<string> {
  if (!isUtf8(bytes)) throw new ImportError(`${what} is not valid UTF-8.`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  const parts: string[] = [];
  while (at < buffer.length) {
    let end = Math.min(buffer.length, at + SLICE);
    while (end < buffer.length && (buffer[end]! & 0xc0) === 0x80) end--; // not inside a character
    parts.push(buffer.toString('utf8', at, end));
    at = end;
    if (at < buffer.length) await nextTurn();
  }
  return parts.join('');
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
  /** Start and end (exclusive) of each item's text, flat: [start0, end0, start1, end1, …]. */
  spans: number[];
}

/**
 * One pass over the text, in slices: nesting and object count checked, the top-level `items` array
 * found and the span of each of its elements recorded. Malformed JSON is left for JSON.parse to name.
 */
async function layoutOf(text: string, what: string): Promise<Layout> {
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
    while (e > elementStart && isSpace(text.charCodeAt(e - 1))) e--;
    spans.push(elementStart, e);
    elementStart = -1;
  };
  for (let from = 0; from < text.length; from += SLICE) {
    if (from > 0) await nextTurn();
    const to = Math.min(text.length, from + SLICE);
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) {
          inString = false;
          if (keyStart >= 0) {
            const raw = text.slice(keyStart, i + 1);
            key = raw.length <= 64 ? (JSON.parse(raw) as string) : null;
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
  const metadata = itemsOpen < 0 ? text : text.slice(0, itemsOpen + 1) + text.slice(itemsClose);
  if (metadata.length > MAX_FEED_METADATA_CHARS) {
    throw new ImportError(
      `${what} holds more than ${MAX_FEED_METADATA_CHARS / (1024 * 1024)} MiB besides its items; only items may be that large.`,
    );
  }
  // An items array never closed is malformed JSON: the metadata's parse names it.
  return { metadata: itemsClose < 0 && itemsOpen >= 0 ? text.slice(0, itemsOpen + 1) : metadata, spans };
}

function parsed(text: string, what: string, revive = false): unknown {
  try {
    return revive ? JSON.parse(text, reviver) : JSON.parse(text);
  } catch (err) {
    throw new ImportError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

export async function parseJsonFeed(bytes: Uint8Array, what = 'The JSON Feed'): Promise<RawItem[]> {
  const text = await utf8(bytes, what);
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
  const items: RawItem[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    if (k > 0 && (k / 2) % ITEMS_PER_TURN === 0) await nextTurn();
    items.push(rawItem(parsed(text.slice(spans[k]!, spans[k + 1]!), what)));
  }
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
