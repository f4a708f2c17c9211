// One entry point for a fetched body: a feed (RSS, Atom, JSON Feed), an HTML page (for discovery),
// or something else. Decided by content, not by Content-Type, which feeds often get wrong.
import { TextDecoder } from 'node:util';
import { parseJsonFeed, jsonFeedVersion } from './json-feed.js';
import { FeedParseError, type ParsedFeed } from './types.js';
import { looksLikeXmlFeed, parseXmlFeed } from './xml-feed.js';

export type Fetched = { kind: 'feed'; feed: ParsedFeed } | { kind: 'html'; html: string } | { kind: 'other' };

function charsetOf(contentType: string | undefined, head: string): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '');
  const fromXml = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return (fromHeader?.[1] ?? fromXml?.[1] ?? fromMeta?.[1] ?? 'utf-8').toLowerCase();
}

/** The body as text in its declared charset (UTF-8 when unknown or unsupported), without a BOM. */
export function decodeBody(body: Buffer, contentType?: string): string {
  const head = body.subarray(0, 1024).toString('latin1');
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charsetOf(contentType, head));
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body).replace(/^\uFEFF/, '');
}

/** Throws FeedParseError for a body that claims to be a feed but cannot be used. */
export async function parseFetched(
  body: Buffer,
  contentType: string | undefined,
  url: string,
): Promise<Fetched> {
  const text = decodeBody(body, contentType);
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
