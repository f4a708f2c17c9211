// Extracted content (docs/api/reader.md "Extracted content"): every entry with a web link gets an
// `extracted_content_url`, a signed address on this service that answers the article behind the link
// in the shape Feedbin's extract service (the Mercury parser) gives, so clients with a "load full
// article" button work unchanged. The page is fetched and the article extracted by the feeds service
// (`feeds.article.extract` over the bus: safe fetcher, Readability, the platform sanitiser); the reader
// keeps the result for a week (a failure for an hour) so opening an entry twice costs one fetch.
//
// The address is signed (HMAC-SHA-256 of the entry id under a key created on first start and kept in
// the store, so every replica signs alike): clients fetch it without credentials, as they do Feedbin's,
// and nobody can walk entry ids to learn what the service's users read or make it fetch pages.
import { feeds } from '@murmur/contracts';
import { notFound } from '@murmur/core';
import type { z } from 'zod';
import { htmlToText } from '../feeds/html.js';
import type { extractSchema } from '../shapes.js';
import type { EntryDoc, ExtractDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';

export { ExtractLinks } from './extract-links.js';

export type ExtractJson = z.input<typeof extractSchema>;

const FOUND_KEEP_MS = 7 * 24 * 3_600_000;
const FAILED_KEEP_MS = 3_600_000;
/** Feeds fetches for at most 20 s and extracts in well under a second. */
const EXTRACT_TIMEOUT_MS = 30_000;

/** Requests for the same entry while its page is being fetched share one fetch. */
const pending = new Map<number, Promise<ExtractDoc>>();

async function extractNow(ctx: ReaderContext, entryId: number, url: string): Promise<ExtractDoc> {
  const answer = await ctx.bus.request(feeds.articleExtract, { url }, { timeoutMs: EXTRACT_TIMEOUT_MS });
  const now = ctx.clock.nowDate();
  const doc: ExtractDoc = answer.found
    ? {
        _id: entryId,
        found: true,
        title: answer.title,
        contentHtml: answer.contentHtml,
        excerpt: answer.excerpt,
        url: answer.url,
        reason: '',
        extractedAt: now,
        expiresAt: new Date(now.getTime() + FOUND_KEEP_MS),
      }
    : {
        _id: entryId,
        found: false,
        title: '',
        contentHtml: '',
        excerpt: '',
        url,
        reason: answer.reason,
        extractedAt: now,
        expiresAt: new Date(now.getTime() + FAILED_KEEP_MS),
      };
  await ctx.store.saveExtract(doc);
  return doc;
}

function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (const ch of text) {
    const space = /\s/.test(ch);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function extractJson(entry: EntryDoc, doc: ExtractDoc): ExtractJson {
  let host: string | null = null;
  try {
    host = new URL(doc.url).hostname;
  } catch {
    host = null;
  }
  return {
    title: doc.title || entry.title,
    author: entry.author,
    date_published: new Date(Math.floor(entry.published / 1000)).toISOString(),
    dek: null,
    lead_image_url: null,
    content: doc.contentHtml,
    next_page_url: null,
    url: doc.url,
    domain: host,
    excerpt: doc.excerpt,
    word_count: countWords(htmlToText(doc.contentHtml)),
    direction: 'ltr',
    total_pages: 1,
    rendered_pages: 1,
  };
}

/**
 * The article behind a signed extracted-content address. A wrong signature, an unknown entry and an
 * entry without a web link are the same 404; a page with no readable article is a 404 naming why.
 */
export async function extractedArticle(
  ctx: ReaderContext,
  entryId: number,
  signature: string,
): Promise<ExtractJson> {
  const links = ctx.extractLinks;
  if (!links || !links.verify(entryId, signature)) throw notFound();
  const [entry] = await ctx.store.entriesByIds([entryId]);
  if (!entry || links.urlFor(entry) === null) throw notFound();

  let doc = await ctx.store.extractOfEntry(entryId);
  if (!doc || doc.expiresAt.getTime() <= ctx.clock.nowDate().getTime()) {
    let running = pending.get(entryId);
    if (!running) {
      running = extractNow(ctx, entryId, entry.url!).finally(() => pending.delete(entryId));
      pending.set(entryId, running);
    }
    doc = await running;
  }
  if (!doc.found) throw notFound(`No article could be extracted from ${doc.url}: ${doc.reason}`);
  return extractJson(entry, doc);
}
