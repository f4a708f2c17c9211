// JSON Feed 1 and 1.1 (https://jsonfeed.org/version/1.1) mapped to the parsers' common shape. The
// first attachment becomes the enclosure; the source's own fields are kept for `mode=extended`.
import { parseTimestamp } from '@murmur/core';
import { escapeHtml } from '@murmur/http';
import type { EnclosureDoc, EntryJsonFeed, JsonFeedMeta } from '../store/index.js';
import { entryUrl, httpUrl, truncateText } from './html.js';
import { parseFeedDate } from './dates.js';
import { FeedParseError, type DocumentWebSub, type ParsedFeed, type ParsedItem } from './types.js';

export const JSON_FEED_VERSIONS = ['https://jsonfeed.org/version/1', 'https://jsonfeed.org/version/1.1'];

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown, max = 2048): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null;
}

/** A JSON Feed title is plain text: `<i>` in it is two characters and a letter, not markup. */
function plainTitle(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : truncateText(t, 1000);
}

/**
 * The version URL when `doc` claims to be a JSON Feed (trailing slash tolerated; `http://`, as
 * WordPress plugins publish it, read as the https URL).
 */
export function jsonFeedVersion(doc: unknown): string | null {
  if (!isObject(doc) || typeof doc.version !== 'string') return null;
  const version = doc.version
    .trim()
    .replace(/\/+$/, '')
    .replace(/^http:\/\//i, 'https://');
  return JSON_FEED_VERSIONS.includes(version) ? version : null;
}

/** `{name, url, avatar}` with only the string members present; null when none is. */
function authorObject(v: unknown, base: string): Record<string, string> | null {
  if (!isObject(v)) return null;
  const out: Record<string, string> = {};
  const name = text(v.name, 200);
  const url = httpUrl(v.url, base);
  const avatar = httpUrl(v.avatar, base);
  if (name) out.name = name;
  if (url) out.url = url;
  if (avatar) out.avatar = avatar;
  return Object.keys(out).length > 0 ? out : null;
}

function authorObjects(v: unknown, base: string): Array<Record<string, string>> | null {
  if (!Array.isArray(v)) return null;
  return v.map((a) => authorObject(a, base)).filter((a): a is Record<string, string> => a !== null);
}

/** The names of an item's or a feed's authors: 1.1's `authors`, else 1.0's `author`; null when none. */
function authorsOf(holder: Json, base: string): string | null {
  const authors = authorObjects(holder.authors, base);
  const author = authorObject(holder.author, base);
  return authorNames(authors && authors.length > 0 ? authors : author ? [author] : []);
}

/** Every author's name joined with ", " (duplicates once); null when none. */
function authorNames(list: Array<Record<string, string>>): string | null {
  const names = [...new Set(list.map((a) => a.name).filter((n): n is string => n !== undefined))];
  return names.length === 0 ? null : truncateText(names.join(', '), 200);
}

function enclosureOf(attachments: unknown, base: string): EnclosureDoc | null {
  if (!Array.isArray(attachments)) return null;
  const first: unknown = attachments[0];
  if (!isObject(first)) return null;
  const url = httpUrl(first.url, base);
  if (!url) return null;
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? String(v) : '');
  return {
    url,
    type: text(first.mime_type, 200) ?? '',
    length: number(first.size_in_bytes),
    duration: number(first.duration_in_seconds),
  };
}

function mapItem(item: Json, feedUrl: string): ParsedItem | null {
  const id = typeof item.id === 'number' ? String(item.id) : text(item.id, 2048);
  const link = entryUrl(item.url, feedUrl);
  const base = link ?? feedUrl;
  let contentHtml = text(item.content_html, 5_000_000);
  if (contentHtml === null) {
    const body = text(item.content_text, 5_000_000) ?? text(item.summary, 100_000);
    if (body !== null) contentHtml = `<p>${escapeHtml(body).replace(/\n{2,}/g, '</p><p>')}</p>`;
  }
  const authors = authorObjects(item.authors, base);
  const author = authorObject(item.author, base);
  const published = text(item.date_published, 100) ?? text(item.date_modified, 100);
  const parsedDate = published === null ? null : parseTimestamp(published);
  const lenient = parsedDate === null && published !== null ? parseFeedDate(published) : null;
  const jsonFeed: EntryJsonFeed = {
    id: id ?? '',
    image: httpUrl(item.image, base),
    banner_image: httpUrl(item.banner_image, base),
    author,
    authors: authors && authors.length > 0 ? authors : null,
    external_url: httpUrl(item.external_url, base),
  };
  if (id === null && link === null && contentHtml === null) return null;
  return {
    guid: id,
    link,
    title: plainTitle(item.title),
    author: authorsOf(item, base),
    contentHtml,
    published: parsedDate ? new Date(parsedDate.ms) : lenient,
    enclosure: enclosureOf(item.attachments, base),
    jsonFeed,
  };
}

/** JSON Feed's `hubs` (`{type, url}`; WebSub's type, any case, or none) and `feed_url` as self. */
function jsonWebSub(doc: Json, self: string | null, feedUrl: string): DocumentWebSub | null {
  const hubs: string[] = [];
  if (Array.isArray(doc.hubs)) {
    for (const hub of doc.hubs) {
      if (!isObject(hub)) continue;
      const type = typeof hub.type === 'string' ? hub.type.trim().toLowerCase() : '';
      const url = httpUrl(hub.url, feedUrl);
      if (url && (type === '' || type === 'websub' || type === 'pubsubhubbub') && !hubs.includes(url))
        hubs.push(url);
    }
  }
  return hubs.length === 0 ? null : { hubs, self };
}

export function parseJsonFeed(doc: unknown, feedUrl: string): ParsedFeed {
  const version = jsonFeedVersion(doc);
  if (version === null || !isObject(doc)) throw new FeedParseError('not a JSON Feed');
  if (!Array.isArray(doc.items)) throw new FeedParseError('JSON Feed without an items array');
  const homePage = httpUrl(doc.home_page_url, feedUrl);
  const meta: JsonFeedMeta = {
    favicon: httpUrl(doc.favicon, feedUrl),
    icon: httpUrl(doc.icon, feedUrl),
    feed_url: httpUrl(doc.feed_url, feedUrl),
    home_page_url: homePage,
    title: plainTitle(doc.title),
    version,
  };
  const items = doc.items
    .filter(isObject)
    .map((item) => mapItem(item, feedUrl))
    .filter((item): item is ParsedItem => item !== null);
  // JSON Feed 1.1: an item that names no author has the feed's (`authors`, else 1.0's `author`).
  const feedAuthors = authorsOf(doc, feedUrl);
  if (feedAuthors !== null) for (const item of items) item.author ??= feedAuthors;
  const websub = jsonWebSub(doc, meta.feed_url, feedUrl);
  return {
    format: 'json',
    title: meta.title,
    siteUrl: homePage,
    jsonFeed: meta,
    items,
    ...(websub ? { websub } : {}),
  };
}
