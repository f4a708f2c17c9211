// Parsed items → entry fields: identity key, sanitised content, plain-text summary and a hash of what
// clients see (a re-seen entry is rewritten only when that changes).
import { createHash } from 'node:crypto';
import type { EntryDoc } from '../store/index.js';
import { htmlToText, sanitizeContent, truncateText } from './html.js';
import type { ParsedItem } from './types.js';

/** More items than this in one document are ignored (newest first, as feeds list them). */
export const MAX_ITEMS_PER_FETCH = 1000;
export const SUMMARY_LENGTH = 300;

/** What a parsed item becomes; `published` is null when the item has no usable date (arrival is used). */
export type EntryFields = Pick<
  EntryDoc,
  'key' | 'title' | 'url' | 'author' | 'content' | 'summary' | 'enclosure' | 'jsonFeed' | 'hash'
> & { published: number | null };

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

export function entryFieldsOf(items: ParsedItem[], feedUrl: string): EntryFields[] {
  const limited = items.slice(0, MAX_ITEMS_PER_FETCH);
  const keys = keysOf(limited);
  const seen = new Set<string>();
  const out: EntryFields[] = [];
  limited.forEach((item, i) => {
    const key = keys[i]!;
    if (seen.has(key)) return;
    seen.add(key);
    const content =
      item.contentHtml === null ? null : sanitizeContent(item.contentHtml, item.link ?? feedUrl);
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
    out.push({ ...fields, hash: sha256(JSON.stringify(fields)) });
  });
  return out;
}
