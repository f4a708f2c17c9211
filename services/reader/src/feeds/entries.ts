// Parsed items → entry fields: identity key, sanitised content, plain-text summary and a hash of what
// clients see (a re-seen entry is rewritten only when that changes), and a digest of the item's
// source (a re-seen entry whose source is unchanged is not even derived again).
import { createHash } from 'node:crypto';
import type { EntryDoc } from '../store/index.js';
import { htmlToText, sanitizeContent, truncateText } from './html.js';
import type { ParsedItem } from './types.js';

/** More items than this in one document are ignored (newest first, as feeds list them). */
export const MAX_ITEMS_PER_FETCH = 1000;
export const SUMMARY_LENGTH = 300;

/**
 * Bump when what an item becomes changes for the same source (sanitising, summarising, hashing): a
 * stored entry's `sourceHash` then no longer matches, and the next poll derives it again.
 */
const DERIVATION = 1;

/** What a parsed item becomes; `published` is null when the item has no usable date (arrival is used). */
export type EntryFields = Pick<
  EntryDoc,
  'key' | 'title' | 'url' | 'author' | 'content' | 'summary' | 'enclosure' | 'jsonFeed' | 'hash'
> & { published: number | null; sourceHash: string };

/**
 * One item of a fetch before the costly part: its key, a digest of everything its fields are made
 * from, and what deriveFields sanitises and summarises. A re-poll compares the digest with the stored
 * entry's `sourceHash` and derives only what changed (domain/ingest.ts), on the parser thread when the
 * reader has one (feeds/parsing.ts).
 */
export interface ItemSource {
  key: string;
  digest: string;
  item: ParsedItem;
  /** Relative links in the item's HTML resolve against the item's link, else this. */
  baseUrl: string;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Entry identity: the guid; a guid repeated inside the document falls back to the link; no guid → the
 * link; no link → a hash of title and content. Items whose key repeats are dropped after the first.
 */
function keysOf(items: ParsedItem[]): string[] {
  const guidCount = new Map<string, number>();
  for (const item of items) if (item.guid) guidCount.set(item.guid, (guidCount.get(item.guid) ?? 0) + 1);
  return items.map((item) => {
    if (item.guid && guidCount.get(item.guid) === 1) return `g:${item.guid}`;
    if (item.link) return `l:${item.link}`;
    if (item.guid) return `g:${item.guid}`;
    return `h:${sha256(`${item.title ?? ''}\u0000${item.contentHtml ?? ''}`)}`;
  });
}

export function itemSourcesOf(items: ParsedItem[], feedUrl: string): ItemSource[] {
  const limited = items.slice(0, MAX_ITEMS_PER_FETCH);
  const keys = keysOf(limited);
  const seen = new Set<string>();
  const out: ItemSource[] = [];
  limited.forEach((item, i) => {
    const key = keys[i]!;
    if (seen.has(key)) return;
    seen.add(key);
    // The base URL is part of the source: relative links in the HTML resolve against it.
    const digest = sha256(JSON.stringify([DERIVATION, key, item.link ?? feedUrl, item])).slice(0, 32);
    out.push({ key, digest, item, baseUrl: feedUrl });
  });
  return out;
}

/** The entry fields of an item: its HTML sanitised, a plain-text summary, the hash of what clients see. */
export function deriveFields({ item, key, baseUrl, digest }: ItemSource): EntryFields {
  const content = item.contentHtml === null ? null : sanitizeContent(item.contentHtml, item.link ?? baseUrl);
  const summary = content === null ? '' : truncateText(htmlToText(content), SUMMARY_LENGTH);
  const published = item.published ? item.published.getTime() * 1000 : null;
  const fields = {
    key,
    title: item.title,
    url: item.link,
    author: item.author,
    content: content === '' ? null : content,
    summary,
    published,
    enclosure: item.enclosure,
    jsonFeed: item.jsonFeed,
  };
  return { ...fields, hash: sha256(JSON.stringify(fields)), sourceHash: digest };
}

/** Every item's fields, derived now (discovery's first fetch, the fidelity harness). */
export function entryFieldsOf(items: ParsedItem[], feedUrl: string): EntryFields[] {
  return itemSourcesOf(items, feedUrl).map(deriveFields);
}
