// JSON Feed 1 and 1.1 exports (docs/api/archive.md "Importing"): UTF-8 JSON with the platform's body
// rules (nesting ≤ 20, `__proto__`/`constructor`/`prototype` dropped), a `version` of either
// jsonfeed.org URL and an `items` array. Numeric ids are coerced to strings by items.ts.
import { parseJsonBody } from '@murmur/http';
import type { RawItem } from '../items.js';
import { ImportError } from './errors.js';

const VERSIONS = /^https?:\/\/jsonfeed\.org\/version\/1(\.1)?\/?$/;

/**
 * Objects a JSON Feed may hold (items and what they contain). A 100 MiB file of `{}` would be tens of
 * millions of them, gigabytes once parsed: counted first, in one pass, so such a file fails the import
 * instead of the process.
 */
export const MAX_JSON_OBJECTS = 2_000_000;

function tooManyObjects(text: string, limit: number): boolean {
  let objects = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b && ++objects > limit) return true;
  }
  return false;
}

/** Bytes as UTF-8 text (a leading BOM dropped); anything else is refused, never guessed. */
export function utf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ImportError(`${what} is not valid UTF-8.`);
  }
}

export function parseJsonFeed(bytes: Uint8Array, what = 'The JSON Feed'): RawItem[] {
  const text = utf8(bytes, what);
  if (tooManyObjects(text, MAX_JSON_OBJECTS)) {
    throw new ImportError(
      `${what} holds more than ${MAX_JSON_OBJECTS} objects; split it into several imports.`,
    );
  }
  let doc: unknown;
  try {
    doc = parseJsonBody(text);
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ImportError(`${what} is not a JSON Feed (not an object).`);
  }
  const feed = doc as Record<string, unknown>;
  if (typeof feed.version !== 'string' || !VERSIONS.test(feed.version)) {
    throw new ImportError(`${what} is not a JSON Feed (no jsonfeed.org version).`);
  }
  if (!Array.isArray(feed.items)) throw new ImportError(`${what} has no items array.`);
  return feed.items.map((entry): RawItem => {
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
  });
}
