// One entry point for a fetched body: a feed (RSS, Atom, JSON Feed), an HTML page (for discovery),
// or something else. Decided by content, not by Content-Type, which feeds often get wrong.
import { FETCH_LIMITS } from '@murmur/fetch';
import { decodeFeedBody } from './decode.js';
import { parseJsonFeed, jsonFeedVersion } from './json-feed.js';
import { FeedParseError, type ParsedFeed } from './types.js';
import { looksLikeXmlFeed, parseXmlFeed } from './xml-feed.js';

export type Fetched = { kind: 'feed'; feed: ParsedFeed } | { kind: 'html'; html: string } | { kind: 'other' };

/** The body as text (decode.ts decides the encoding); a body in an unknown charset as UTF-8. */
export function decodeBody(body: Buffer, contentType?: string): string {
  try {
    return decodeFeedBody(body, contentType).text;
  } catch (err) {
    if (err instanceof FeedParseError) return body.toString('utf8').replace(/^\uFEFF/, '');
    throw err;
  }
}

/** Throws FeedParseError for a body that claims to be a feed but cannot be used. */
export async function parseFetched(
  body: Buffer,
  contentType: string | undefined,
  url: string,
): Promise<Fetched> {
  if (body.length > FETCH_LIMITS.feed.maxBytes) {
    throw new FeedParseError(`feed larger than ${FETCH_LIMITS.feed.maxBytes} bytes`);
  }
  const text = decodeFeedBody(body, contentType).text;
  // Decoding a large body is the longest synchronous step; the event loop runs before the next one.
  if (body.length > 256 * 1024) await new Promise<void>((resolve) => setImmediate(resolve));
  const start = text.trimStart();
  if (start.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(start);
    } catch {
      if (/json/i.test(contentType ?? '')) throw new FeedParseError('malformed JSON');
      return { kind: 'other' };
    }
    return jsonFeedVersion(doc) === null
      ? { kind: 'other' }
      : { kind: 'feed', feed: parseJsonFeed(doc, url) };
  }
  if (start.startsWith('<')) {
    if (looksLikeXmlFeed(start)) return { kind: 'feed', feed: await parseXmlFeed(start, url) };
    if (/<html[\s>]|<head[\s>]|<body[\s>]|<link\s|<!doctype html/i.test(start.slice(0, 4096))) {
      return { kind: 'html', html: start };
    }
    if (/xml/i.test(contentType ?? '')) throw new FeedParseError('XML that is not a feed');
  }
  return { kind: 'other' };
}
