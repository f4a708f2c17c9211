// What an RSS/RDF/Atom item means, read from feedparser's raw namespaced nodes rather than its
// normalised fields (docs/api/reader.md "Parsing"): Atom text constructs by their type (text, html,
// xhtml; Atom 0.3 mode="base64"), RSS content sources, every date element, every author source.
// Each value has been XML-decoded once by the parser; HTML is decoded once more only where it is HTML.
import { escapeHtml } from '@murmur/http';
import { parseFeedDate } from './dates.js';
import { htmlToText, truncateText } from './html.js';

/** A node as feedparser keeps it: attributes under '@', text under '#', children by prefixed name. */
export interface RawNode {
  '@'?: Record<string, string>;
  '#'?: string;
  [child: string]: unknown;
}

export type RawItem = Record<string, unknown>;

function isNode(v: unknown): v is RawNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** Every node under `key` (feedparser keeps one node as an object, several as an array). */
export function nodes(item: RawItem | RawNode, key: string): RawNode[] {
  const v = item[key];
  if (Array.isArray(v)) return v.filter(isNode);
  return isNode(v) ? [v] : [];
}

function textOf(node: RawNode | undefined): string | null {
  const t = node?.['#'];
  return typeof t === 'string' && t.trim() !== '' ? t : null;
}

/**
 * RFC 4287 §4.1.3.3: content of a media type that is neither text/*, nor XML, nor text/html/xhtml is
 * base64-encoded (`type="application/octet-stream"`).
 */
function isBase64Type(type: string): boolean {
  if (!type.includes('/') || type.startsWith('text/')) return false;
  return !(type.endsWith('+xml') || type.endsWith('/xml') || type === 'application/xml-dtd');
}

/** A text construct: its value as HTML or as plain text, per its type (and Atom 0.3's mode). */
export interface Construct {
  kind: 'text' | 'html';
  value: string;
}

export function construct(node: RawNode | undefined): Construct | null {
  let value = textOf(node);
  if (value === null || node === undefined) return null;
  const attrs = node['@'] ?? {};
  const type = (attrs.type ?? 'text').trim().toLowerCase();
  if ((attrs.mode ?? '').trim().toLowerCase() === 'base64' || isBase64Type(type)) {
    value = Buffer.from(value.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (value.trim() === '') return null;
  }
  // xhtml: the parser has serialised the inline <div> as HTML with its text escaped again.
  const html =
    type === 'html' || type === 'xhtml' || type === 'text/html' || type === 'application/xhtml+xml';
  return { kind: html ? 'html' : 'text', value };
}

/** Plain text of a construct: HTML decoded once and its tags dropped (their words kept); text as it is. */
export function constructText(c: Construct | null, max = 1000, everything = true): string | null {
  if (c === null) return null;
  const text = c.kind === 'html' ? htmlToText(c.value, everything) : c.value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : truncateText(text, max);
}

/** HTML of a construct: plain text escaped, so `<blink>` in text stays visible text. */
export function constructHtml(c: Construct | null): string | null {
  if (c === null) return null;
  const html = c.kind === 'html' ? c.value : escapeHtml(c.value);
  return html.trim() === '' ? null : html;
}

/** The first node under any of `keys` that has text. */
function first(item: RawItem, keys: string[]): RawNode | undefined {
  for (const key of keys) {
    const found = nodes(item, key).find((n) => textOf(n) !== null);
    if (found) return found;
  }
  return undefined;
}

/**
 * RSS says nothing of markup in titles, and feeds write both plain and escaped HTML there. As
 * feedparser does, a value is HTML only when it holds a close tag or an entity reference (left after
 * the XML decoding); otherwise it is plain text and `<b>` in it is three characters and a letter.
 */
export function looksLikeHtml(value: string): boolean {
  return (
    /<\/[A-Za-z][\w-]*\s*>/.test(value) || /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i.test(value)
  );
}

/** A plain-text field of RSS/RDF (title, Dublin Core title): HTML only when it looks like HTML. */
export function rssText(node: RawNode | undefined, max = 1000): string | null {
  const value = textOf(node);
  if (value === null) return null;
  return constructText({ kind: looksLikeHtml(value) ? 'html' : 'text', value }, max);
}

const RSS_TITLE_KEYS = ['rss:title', 'rdf:title', 'dc:title', 'media:title'];
/** Full content before summaries; `xhtml:body` is serialised by the parser like Atom xhtml. */
const CONTENT_KEYS = ['atom:content', 'content:encoded', 'xhtml:body', 'rss:body', 'rss:fullitem'];
const SUMMARY_KEYS = [
  'rss:description',
  'rdf:description',
  'atom:summary',
  'dc:description',
  'itunes:summary',
  'rss:summary',
  'rss:abstract', // CDF
  'media:description',
];
/**
 * Publication dates first, then modification dates (an entry with only `updated` is dated by it), in
 * feedparser's order: `dc:date` counts as a modification date there, `dcterms:issued` as publication.
 */
const DATE_KEYS = [
  'atom:published', 'atom:issued', 'rss:pubdate', 'rdf:pubdate', 'dcterms:issued', 'dcterms:created',
  'dc:date', 'dcterms:date', 'atom:updated', 'atom:modified', 'rss:updated', 'dcterms:modified',
  'atom:created',
]; // prettier-ignore

/**
 * The title: an Atom text construct by its type, else an RSS title as text unless it looks like HTML;
 * undefined when the item has neither.
 */
export function itemTitle(item: RawItem): string | null | undefined {
  const atom = first(item, ['atom:title']);
  // Declared HTML: a <script> in it is script, not words of the title (as Python feedparser reads it).
  if (atom !== undefined) return constructText(construct(atom), 1000, false);
  const rss = first(item, RSS_TITLE_KEYS);
  return rss === undefined ? undefined : rssText(rss);
}

/** HTML of the first content source that has any, each read by its type. */
export function itemContent(item: RawItem): string | null {
  for (const key of [...CONTENT_KEYS, ...SUMMARY_KEYS]) {
    // Media RSS puts its description in the item or in a media:group.
    const found =
      key === 'media:description'
        ? [...nodes(item, key), ...nodes(item, 'media:group').flatMap((g) => nodes(g, key))]
        : nodes(item, key);
    for (const node of found) {
      if (key === 'atom:content' && node['@']?.src) continue; // out-of-line content
      const c = key.startsWith('atom:') || key === 'media:description' ? construct(node) : html(node);
      const out = constructHtml(c);
      if (out !== null) return out;
    }
  }
  return null;
}

/** RSS content elements hold HTML (escaped or in CDATA); an Atom 0.3 base64 one is decoded first. */
function html(node: RawNode): Construct | null {
  const c = construct(node);
  return c === null ? null : { kind: 'html', value: c.value };
}

export function itemDate(item: RawItem): Date | null {
  for (const key of DATE_KEYS) {
    for (const node of nodes(item, key)) {
      const date = parseFeedDate(textOf(node));
      if (date) return date;
    }
  }
  return null;
}

/** `jo@example.com (Jo)` → Jo; `Jo <jo@example.com>` → Jo; an address alone stays. */
function personName(raw: string): string {
  const s = raw.replace(/\s+/g, ' ').trim();
  const paren = /^\S+@\S+\s*\((.+)\)$/.exec(s);
  if (paren) return paren[1]!.trim();
  const angle = /^(.+?)\s*<\S+@\S+>$/.exec(s);
  return angle ? angle[1]!.replace(/^"|"$/g, '').trim() : s;
}

function atomAuthors(parent: RawItem | RawNode, key: string): string[] {
  return nodes(parent, key)
    .map((a) => textOf(nodes(a, 'name')[0] ?? nodes(a, 'atom:name')[0]) ?? textOf(nodes(a, 'email')[0]))
    .filter((n): n is string => n !== null);
}

/**
 * Where an item's author comes from, by precedence (docs/api/reader.md "Parsing"): the item's Atom
 * authors, its `dc:creator`s, `dc:author`s, RSS `author`s (an address with the name in brackets),
 * `itunes:author`s. Vocabularies are not mixed: a podcast
 * item's `dc:creator` is its writer and its `itunes:author` usually the show, so taking both would
 * show "Marco Arment, ATP" where Python feedparser and NetNewsWire show one name.
 */
const ITEM_AUTHOR_SOURCES: readonly (readonly string[])[] = [
  ['atom:author'],
  ['dc:creator'],
  ['dc:author'],
  // One kind: RSS 2.0's `author` and RSS 1.0's as feedparser prefixes it.
  ['rss:author', 'rdf:author'],
  ['itunes:author'],
];

/** The names given by the elements `key` of `item`, cleaned; empty ones dropped. */
function authorNamesOf(item: RawItem, key: string): string[] {
  const names =
    key === 'atom:author'
      ? atomAuthors(item, key)
      : nodes(item, key).map((n) =>
          typeof n.name === 'string' && n.name.trim() !== '' ? n.name : textOf(n),
        );
  return names
    .filter((n): n is string => typeof n === 'string')
    .map(personName)
    .filter((n) => n !== '');
}

/**
 * The item's author: the names of the first of ITEM_AUTHOR_SOURCES that has any — repeated
 * elements of that one kind joined with ", " (duplicates once) — else the authors of its Atom
 * `source`; else undefined.
 */
export function itemAuthor(item: RawItem): string | null | undefined {
  let names: string[] = [];
  for (const keys of ITEM_AUTHOR_SOURCES) {
    names = keys.flatMap((key) => authorNamesOf(item, key));
    if (names.length > 0) break;
  }
  if (names.length === 0) {
    for (const source of nodes(item, 'atom:source')) {
      names.push(...atomAuthors(source, 'author'), ...atomAuthors(source, 'atom:author'));
    }
  }
  const unique = [...new Set(names)];
  return unique.length === 0 ? undefined : truncateText(unique.join(', '), 200);
}

/** The authors of an Atom feed (its `<author>` elements), joined; null when it names none. */
export function feedAuthorNames(meta: RawItem): string | null {
  const names = [
    ...new Set(
      atomAuthors(meta, 'atom:author')
        .map(personName)
        .filter((n) => n !== ''),
    ),
  ];
  return names.length === 0 ? null : truncateText(names.join(', '), 200);
}
