// What the parsers hand to the rest of the reader: the same shape for RSS, Atom and JSON Feed.
import type { EnclosureDoc, EntryJsonFeed, JsonFeedMeta } from '../store/index.js';

export type FeedFormat = 'rss' | 'atom' | 'json';

export interface ParsedItem {
  guid: string | null;
  /** Absolute http(s) URL, or null. */
  link: string | null;
  /** Plain text (tags removed, entities decoded), or null. */
  title: string | null;
  author: string | null;
  /** Unsanitised HTML as the source gave it; relative URLs are resolved against `link`/the feed URL. */
  contentHtml: string | null;
  published: Date | null;
  enclosure: EnclosureDoc | null;
  jsonFeed: EntryJsonFeed | null;
}

/** WebSub discovery as the document itself gives it (docs/api/reader.md "WebSub"). */
export interface DocumentWebSub {
  /** Absolute http(s) URLs of the hubs it names, in document order. */
  hubs: string[];
  /** Its own canonical URL (Atom `rel="self"`, JSON Feed `feed_url`), or null. */
  self: string | null;
}

export interface ParsedFeed {
  format: FeedFormat;
  /** Hubs and self the document names; absent when it names none. */
  websub?: DocumentWebSub;
  title: string | null;
  siteUrl: string | null;
  jsonFeed: JsonFeedMeta | null;
  items: ParsedItem[];
}

/** The body is recognisably a feed but cannot be used (malformed, refused XML constructs). */
export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}
