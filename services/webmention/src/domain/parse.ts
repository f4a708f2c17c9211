// Turning a verified HTML source into a mention (docs/api/webmention.md, "Parsing"): the first h-entry
// (top level first, then inside an h-feed) read with microformats-parser, the author with the
// authorship fallbacks, content sanitised by the platform's sanitiser and cut at 2,000 characters,
// the published date, and the type from the response properties (also inside an embedded h-cite).
import { Parser } from 'htmlparser2';
import { mf2 } from 'microformats-parser';
import { parseTimestamp } from '@murmur/core';
import { capHtmlNesting, sanitizeHtmlFragment } from '@murmur/fetch';
import { escapeHtml } from '@murmur/http';
import type { webmention } from '@murmur/contracts';
import { sameUrl } from './urls.js';

type Property = ReturnType<typeof mf2>['items'][number]['properties'][string][number];
type Item = ReturnType<typeof mf2>['items'][number];

export const MAX_TEXT = 2000;

export interface ParsedMention {
  type: webmention.MentionType;
  url: string;
  author: webmention.MentionAuthor;
  contentHtml: string;
  contentText: string;
  /** The page's title when it has no h-entry (shown as the item's name/title). */
  name?: string;
  /** Epoch ms when the source gives a date that parses. */
  publishedMs: number | undefined;
}

const isItem = (p: Property | undefined): p is Item =>
  typeof p === 'object' && p !== null && 'properties' in p && Array.isArray((p as Item).type);

/** A plain value of a property: strings as they are, `{value}` objects (images, HTML) by their value. */
function plain(p: Property | undefined): string | undefined {
  if (p === undefined) return undefined;
  if (typeof p === 'string') return p;
  if (isItem(p)) return typeof p.value === 'string' ? p.value : undefined;
  return typeof p.value === 'string' ? p.value : undefined;
}

function first(item: Item, name: string): Property | undefined {
  return item.properties[name]?.[0];
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function compact(author: webmention.MentionAuthor): webmention.MentionAuthor {
  const out: webmention.MentionAuthor = {};
  if (author.name) out.name = author.name;
  if (author.url) out.url = author.url;
  if (author.photo) out.photo = author.photo;
  return out;
}

function authorFrom(p: Property | undefined): webmention.MentionAuthor | undefined {
  if (p === undefined) return undefined;
  if (isItem(p)) {
    const name = plain(first(p, 'name'));
    const url = plain(first(p, 'url'));
    const photo = plain(first(p, 'photo'));
    const author = compact({ name: name?.trim(), url, photo });
    return Object.keys(author).length > 0 ? author : undefined;
  }
  const text = plain(p)?.trim();
  if (!text) return undefined;
  if (isHttpUrl(text)) return { name: new URL(text).host, url: text };
  return { name: text };
}

function entryOf(items: Item[]): { entry: Item; feed: Item | undefined } | undefined {
  const top = items.find((i) => i.type?.includes('h-entry'));
  if (top) return { entry: top, feed: undefined };
  for (const feed of items.filter((i) => i.type?.includes('h-feed'))) {
    const entry = feed.children?.find((c) => c.type?.includes('h-entry'));
    if (entry) return { entry, feed };
  }
  return undefined;
}

const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'blockquote',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
]);

/** The text of sanitised HTML, block boundaries as spaces, whitespace collapsed. */
export function textOf(html: string): string {
  let text = '';
  const parser = new Parser(
    {
      ontext(t) {
        text += t;
      },
      onopentag(name) {
        if (BLOCKS.has(name)) text += ' ';
      },
      onclosetag(name) {
        if (BLOCKS.has(name)) text += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts text over MAX_TEXT characters at a word boundary and adds "…". */
export function cutText(text: string): { text: string; cut: boolean } {
  if (text.length <= MAX_TEXT) return { text, cut: false };
  const slice = text.slice(0, MAX_TEXT);
  const space = slice.search(/\s\S*$/);
  return { text: `${(space > MAX_TEXT / 2 ? slice.slice(0, space) : slice).trimEnd()}…`, cut: true };
}

const RESPONSE_PROPERTIES: ReadonlyArray<[string, webmention.MentionType]> = [
  ['repost-of', 'repost'],
  ['like-of', 'like'],
  ['bookmark-of', 'bookmark'],
  ['in-reply-to', 'reply'],
];

function typeOf(entry: Item, target: string): webmention.MentionType {
  for (const [property, type] of RESPONSE_PROPERTIES) {
    for (const value of entry.properties[property] ?? []) {
      const url = isItem(value) ? (plain(first(value, 'url')) ?? plain(value)) : plain(value);
      if (url !== undefined && sameUrl(url, target)) return type;
    }
  }
  return 'mention';
}

export function parseHtmlMention(
  html: string,
  finalUrl: string,
  source: string,
  target: string,
  title: string,
): ParsedMention {
  const doc = mf2(capHtmlNesting(html), { baseUrl: finalUrl });
  const sourceUrl = new URL(source);
  const fallbackAuthor = (): webmention.MentionAuthor => {
    const relAuthor = doc.rels.author?.[0];
    if (relAuthor) return { name: new URL(relAuthor).host, url: relAuthor };
    return { name: sourceUrl.host, url: `${sourceUrl.origin}/` };
  };
  const found = entryOf(doc.items);
  if (!found) {
    return {
      type: 'mention',
      url: source,
      author: fallbackAuthor(),
      contentHtml: '',
      contentText: '',
      ...(title ? { name: cutText(title).text } : {}),
      publishedMs: undefined,
    };
  }
  const { entry, feed } = found;
  const author =
    authorFrom(first(entry, 'author')) ??
    (feed ? authorFrom(first(feed, 'author')) : undefined) ??
    fallbackAuthor();
  const type = typeOf(entry, target);

  let contentHtml = '';
  let contentText = '';
  const content = first(entry, 'content');
  if (content !== undefined && typeof content === 'object' && 'html' in content) {
    contentHtml = sanitizeHtmlFragment(content.html, { baseUrl: finalUrl });
    // The text of what we keep, not the parser's value (that one would include a <script>'s text).
    contentText = textOf(contentHtml);
  } else if (content !== undefined) {
    contentText = (plain(content) ?? '').trim();
    contentHtml = escapeHtml(contentText);
  } else {
    const summary = plain(first(entry, 'summary'))?.trim();
    // Likes, reposts and bookmarks have an implied name (the whole entry's text), never content.
    const name = type === 'mention' || type === 'reply' ? plain(first(entry, 'name'))?.trim() : undefined;
    contentText = summary ?? name ?? '';
    contentHtml = escapeHtml(contentText);
  }
  const cut = cutText(contentText);
  if (cut.cut) {
    contentText = cut.text;
    contentHtml = escapeHtml(cut.text);
  }

  const publishedText = plain(first(entry, 'published'));
  const published = publishedText === undefined ? null : parseTimestamp(publishedText.trim());
  const url = plain(first(entry, 'url'));
  return {
    type,
    url: url !== undefined && isHttpUrl(url) ? url : source,
    author: compact(author),
    contentHtml,
    contentText,
    publishedMs: published?.ms,
  };
}

/**
 * JSON and text sources, and an HTML source too costly to parse: a plain mention by the source's host,
 * without content (with the page's title when it has one).
 */
export function plainMention(source: string, title = ''): ParsedMention {
  const u = new URL(source);
  return {
    type: 'mention',
    url: source,
    author: { name: u.host, url: `${u.origin}/` },
    contentHtml: '',
    contentText: '',
    ...(title ? { name: cutText(title).text } : {}),
    publishedMs: undefined,
  };
}
