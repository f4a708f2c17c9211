// One imported item → one stored post (docs/api/archive.md "Importing"): the id (coerced to a
// string; the URL when there is none; skipped without both), HTML sanitised by the platform with
// relative URLs resolved against the site URL (else plain text as escaped paragraphs — Markdown in
// `content_text` is never rendered as HTML), plain text, date, tags, first image and the folded
// search terms.
import { Parser } from 'htmlparser2';
import { parseTimestamp } from '@murmur/core';
import { sanitizeHtmlFragment } from '@murmur/fetch';
import { escapeHtml } from '@murmur/http';
import type { PostDoc } from '../store/index.js';
import { postTerms } from './terms.js';

/** What a format parser gives for one item (every member as found, unchecked). */
export interface RawItem {
  id?: unknown;
  url?: unknown;
  title?: unknown;
  contentHtml?: unknown;
  contentText?: unknown;
  published?: unknown;
  modified?: unknown;
  tags?: unknown;
  image?: unknown;
}

/** Items whose HTML or text is larger than this are skipped (counted in `skipped`). */
export const MAX_ITEM_CONTENT = 5 * 1024 * 1024;
export const MAX_ID_LENGTH = 1024;
export const MAX_TITLE_LENGTH = 1000;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 100;

export interface ItemTarget {
  siteId: number;
  /** Absolute URL of the site's home page: the base of relative URLs. */
  siteUrl: string;
  importId: number;
  /** Time of an item without a usable date. */
  nowMs: number;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** An absolute http(s) URL made of `value` resolved against `base`, or ''. */
export function absoluteUrl(value: string, base: string): string {
  const v = value.trim();
  if (v === '' || v.startsWith('//')) return '';
  try {
    const url = new URL(v, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

// Dates are written in the offset form, whose years run from 0001 to 9999.
const EARLIEST = new Date('0001-01-01T00:00:00Z').getTime();
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

function inRange(ms: number | undefined): number | undefined {
  return ms !== undefined && ms >= EARLIEST && ms <= LATEST ? ms : undefined;
}

function timeOf(value: unknown): number | undefined {
  return inRange(parseTime(value));
}

function parseTime(value: unknown): number | undefined {
  const t = text(value).trim();
  if (t === '') return undefined;
  const parsed = parseTimestamp(t);
  if (parsed) return parsed.ms;
  // WordPress writes `2019-04-02 09:15:00`; RSS dates are RFC 822.
  const spaced = parseTimestamp(t.replace(' ', 'T'));
  if (spaced) return spaced.ms;
  const rfc = Date.parse(t);
  return Number.isFinite(rfc) && rfc > 0 ? rfc : undefined;
}

function tagsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  for (const v of value) {
    const tag = text(v).trim().slice(0, MAX_TAG_LENGTH);
    if (tag !== '' && seen.size < MAX_TAGS) seen.add(tag);
  }
  return [...seen];
}

/** Plain text as HTML paragraphs (blank lines), line breaks kept, everything escaped. */
export function textToHtml(plain: string): string {
  return plain
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${p.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('\n');
}

const BLOCKS = new Set(
  'p div li h1 h2 h3 h4 h5 h6 blockquote pre tr dt dd figure figcaption details summary table ul ol hr'.split(
    ' ',
  ),
);

/** The text of sanitised HTML (entities decoded, blocks on their own lines) and its first image. */
export function readHtml(html: string): { text: string; image: string | undefined } {
  let out = '';
  let image: string | undefined;
  const parser = new Parser(
    {
      ontext: (t) => {
        out += t;
      },
      onopentag: (name, attribs) => {
        if (name === 'br') out += '\n';
        else if (BLOCKS.has(name)) out += '\n\n';
        if (name === 'img' && attribs.src && image === undefined) image = attribs.src;
      },
      onclosetag: (name) => {
        if (BLOCKS.has(name)) out += '\n\n';
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const clean = out
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text: clean, image };
}

/** The post an item becomes, or the reason it is skipped. */
export function toPost(raw: RawItem, target: ItemTarget): PostDoc | { skip: string } {
  const url = absoluteUrl(text(raw.url), target.siteUrl);
  const itemId = text(raw.id).trim() || url;
  if (itemId === '') return { skip: 'no id or url' };
  if (itemId.length > MAX_ID_LENGTH) return { skip: 'id too long' };
  const html = text(raw.contentHtml);
  const plain = text(raw.contentText);
  if (html.length > MAX_ITEM_CONTENT || plain.length > MAX_ITEM_CONTENT) return { skip: 'content too large' };

  let contentHtml: string;
  let contentText: string;
  let firstImage: string | undefined;
  if (html.trim() !== '') {
    contentHtml = sanitizeHtmlFragment(html, { baseUrl: target.siteUrl });
    const read = readHtml(contentHtml);
    contentText = read.text;
    firstImage = read.image;
  } else {
    contentText = plain.trim();
    contentHtml = textToHtml(contentText);
  }
  const title = text(raw.title).replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_LENGTH);
  const tags = tagsOf(raw.tags);
  const published = timeOf(raw.published);
  const modified = timeOf(raw.modified);
  const image = absoluteUrl(text(raw.image), target.siteUrl) || firstImage;
  return {
    _id: `${target.siteId}:${itemId}`,
    siteId: target.siteId,
    itemId,
    url,
    title,
    contentHtml,
    contentText,
    publishedMs: published ?? modified ?? target.nowMs,
    ...(modified === undefined ? {} : { modifiedMs: modified }),
    tags,
    ...(image ? { image } : {}),
    terms: postTerms(title, tags, contentText).join(' '),
    visibleFrom: target.importId,
  };
}
