// The Feedbin Entry (docs/api/reader.md "Entries"), typed by the route's response schema.
import type { z } from 'zod';
import { formatReaderTime } from '@murmur/core';
import type { entrySchema } from '../shapes.js';
import type { EntryDoc, EntryJsonFeed } from '../store/index.js';
import type { ExtractLinks } from './extract-links.js';

/** The source item's JSON Feed members that have a value. */
export type PresentJsonFeed = { [K in keyof EntryJsonFeed]?: NonNullable<EntryJsonFeed[K]> };

export type EntryJson = z.input<typeof entrySchema>;
type EnclosureJson = NonNullable<EntryJson['enclosure']>;

export interface EntryShape {
  extended: boolean;
  includeEnclosure: boolean;
  /** Signs `extracted_content_url`; null leaves it null (READER_EXTRACTED_CONTENT off). */
  extractLinks: ExtractLinks | null;
}

function enclosureJson(doc: EntryDoc): EnclosureJson | null {
  const e = doc.enclosure;
  return e
    ? {
        enclosure_url: e.url,
        enclosure_type: e.type,
        enclosure_length: e.length,
        itunes_duration: e.duration,
      }
    : null;
}

/** The members that have a value: values are never invented, absent ones are left out. */
function present(source: EntryJsonFeed): PresentJsonFeed {
  return Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== null && v !== ''),
  ) as PresentJsonFeed;
}

/** The Feedbin Entry, keys in the documented order. */
export function entryJson(doc: EntryDoc, shape: EntryShape): EntryJson {
  const out: EntryJson = {
    id: doc._id,
    feed_id: doc.feedId,
    title: doc.title,
    url: doc.url,
    extracted_content_url: shape.extractLinks?.urlFor(doc) ?? null,
    author: doc.author,
    content: doc.content,
    summary: doc.summary,
    published: formatReaderTime(BigInt(doc.published)),
    created_at: formatReaderTime(BigInt(doc.createdAt)),
  };
  const enclosure = enclosureJson(doc);
  if (shape.includeEnclosure && enclosure) out.enclosure = enclosure;
  if (shape.extended) {
    out.original = null;
    out.images = null;
    out.enclosure = enclosure;
    out.extracted_articles = [];
    out.json_feed = doc.jsonFeed ? present(doc.jsonFeed) : null;
  }
  return out;
}
