// RSS 0.9x/1.0/2.0 and Atom 1.0 through feedparser (over sax), hardened against entity expansion: a
// document declaring entities or carrying a DOCTYPE internal subset is refused before parsing, and
// only the five predefined entities (plus numeric references) are decoded.
import FeedParser from 'feedparser';
import type { EnclosureDoc } from '../store/index.js';
import { parseFeedDate } from './dates.js';
import { entryUrl, httpUrl, plainText } from './html.js';
import {
  feedAuthorNames,
  itemAuthor,
  itemContent,
  itemDate,
  itemTitle,
  nodes,
  rssText,
  construct,
  constructText,
  type RawItem,
} from './xml-fields.js';
import { MAX_ITEMS_PER_FETCH } from './entries.js';
import { FeedParseError, type DocumentWebSub, type ParsedFeed, type ParsedItem } from './types.js';

const XML_ENTITIES = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
  }),
);

const NAME = /[A-Za-z_][\w:.-]*/y;

/**
 * The root element: the first start tag after the XML declaration, processing instructions, comments
 * and the DOCTYPE, whatever markup those contain (`<!-- made with <b>gen</b> -->` is not a root).
 * One forward scan, each skipped construct ending at the first terminator found after it.
 */
export function findRoot(body: string): { index: number; name: string } | null {
  let i = 0;
  for (;;) {
    const lt = body.indexOf('<', i);
    if (lt < 0) return null;
    let end: number;
    if (body.startsWith('<?', lt)) {
      end = body.indexOf('?>', lt + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (body.startsWith('<!--', lt)) {
      end = body.indexOf('-->', lt + 4);
      if (end < 0) return null;
      i = end + 3;
    } else if (body.startsWith('<!', lt)) {
      // DOCTYPE (or another declaration): to its '>', past an internal subset `[...]` when it has one.
      let j = lt + 2;
      while (j < body.length && body[j] !== '>' && body[j] !== '[') j++;
      if (body[j] === '[') {
        const close = body.indexOf(']', j);
        if (close < 0) return null;
        j = body.indexOf('>', close);
      }
      if (j < 0 || j >= body.length) return null;
      i = j + 1;
    } else {
      NAME.lastIndex = lt + 1;
      const name = NAME.exec(body);
      if (name) return { index: lt, name: name[0].toLowerCase() };
      i = lt + 1;
    }
  }
}

/** The text before the root element: where DOCTYPE and entity declarations would be. */
function prolog(body: string): string {
  const root = findRoot(body);
  return root ? body.slice(0, root.index) : body;
}

/**
 * Is there a `<!DOCTYPE` followed by a `[` before any `>` (an internal subset)? A linear scan: every
 * `<!DOCTYPE` between one and the first `>` or `[` after it ends at that same character, so the search
 * resumes there (a regular expression restarting at each `<!DOCTYPE` was quadratic in their number).
 */
function hasInternalSubset(head: string): boolean {
  const doctype = /<!DOCTYPE/gi; // a literal: found by a linear search
  for (;;) {
    const found = doctype.exec(head);
    if (found === null) return false;
    let end = doctype.lastIndex;
    while (end < head.length && head[end] !== '>' && head[end] !== '[') end++;
    if (end === head.length) return false;
    if (head[end] === '[') return true;
    doctype.lastIndex = end + 1;
  }
}

export function refuseEntityDeclarations(body: string): void {
  const head = prolog(body);
  if (/<!ENTITY/i.test(head) || hasInternalSubset(head)) {
    throw new FeedParseError('XML with a DOCTYPE internal subset or entity declarations is refused');
  }
}

/** Deeper XML is refused: feedparser keeps its element stack with unshift/shift, O(depth) each. */
export const MAX_XML_DEPTH = 1000;

/**
 * Does the element nesting go deeper than `max` anywhere? One forward scan over the tags (comments,
 * CDATA sections, PIs and declarations skipped), so a 100,000-deep document costs one pass.
 */
export function nestingExceeds(body: string, max: number): boolean {
  let depth = 0;
  let i = body.indexOf('<');
  while (i >= 0) {
    const next = body.charCodeAt(i + 1);
    let end: number;
    if (body.startsWith('<!--', i)) end = body.indexOf('-->', i + 4);
    else if (body.startsWith('<![CDATA[', i)) end = body.indexOf(']]>', i + 9);
    else if (next === 0x3f /* ? */ || next === 0x21 /* ! */) end = body.indexOf('>', i + 2);
    else {
      end = body.indexOf('>', i + 1);
      if (end < 0) return false;
      if (next === 0x2f /* / */) depth = Math.max(0, depth - 1);
      else if (body.charCodeAt(end - 1) !== 0x2f && ++depth > max) return true;
    }
    if (end < 0) return false;
    i = body.indexOf('<', end + 1);
  }
  return false;
}

function rootName(body: string): string | null {
  return findRoot(body)?.name ?? null;
}

/**
 * Does the document look like RSS, RDF, Atom or CDF (root element name)? A prefixed `<r:rss>` and a
 * `<feed>` in another namespace or none count, as Python feedparser reads them.
 */
export function looksLikeXmlFeed(body: string): boolean {
  const name = rootName(body);
  if (name === null) return false;
  const local = name.slice(name.indexOf(':') + 1);
  return local === 'rss' || local === 'rdf' || name === 'feed' || name === 'channel';
}

const ATOM_10 = 'http://www.w3.org/2005/Atom';
const ATOM_03 = 'http://purl.org/atom/ns#';

/**
 * The document as the parser can read it. feedparser (npm) knows a feed only by its root: `<rss>`, an
 * RDF root, or `<feed>` in an Atom namespace. Python feedparser also reads
 * - `<feed>` without the Atom namespace (none, or another): its root is given Atom's default namespace
 *   (0.3's for `version="0.3"`);
 * - `<r:rss xmlns:r="…">`: the prefix is dropped from the tags;
 * - CDF (`<CHANNEL>` of `<ITEM HREF LASTMOD>` with `<TITLE>`, `<ABSTRACT>`): wrapped in an `<rss>`
 *   root, its item attributes read in `mapItem`.
 */
function readable(body: string): string {
  const root = findRoot(body);
  if (root === null) return body;
  const end = body.indexOf('>', root.index);
  if (end < 0) return body;
  const tag = body.slice(root.index, end + 1);
  if (root.name === 'feed') {
    const declared = /\sxmlns\s*=\s*(["'])(.*?)\1/.exec(tag)?.[2];
    if (declared === ATOM_10 || declared === ATOM_03) return body;
    const ns = /\sversion\s*=\s*["']0\.3["']/.test(tag) ? ATOM_03 : ATOM_10;
    const rewritten = `<feed xmlns="${ns}"${tag.slice(5).replace(/\sxmlns\s*=\s*(["']).*?\1/, '')}`;
    return body.slice(0, root.index) + rewritten + body.slice(end + 1);
  }
  if (root.name === 'channel') {
    return `${body.slice(0, root.index)}<rss version="cdf">${body.slice(root.index)}</rss>`;
  }
  const prefix = /^([A-Za-z_][\w.-]*):rss$/i.exec(root.name)?.[1];
  if (prefix !== undefined) {
    const tags = new RegExp(`<(/?)${prefix}:`, 'gi');
    return body.slice(0, root.index) + body.slice(root.index).replace(tags, '<$1');
  }
  return body;
}

/**
 * sax in non-strict mode accepts a document that simply stops (a cut-off download); feedparser then
 * reports a feed without items. A document whose root element is never closed is refused instead.
 */
function refuseUnclosedRoot(body: string): void {
  const name = rootName(body);
  // A case-insensitive search, not a lower-cased copy of a document of up to 15 MB.
  if (name !== null && !new RegExp(`</${name.replace(/[.]/g, '\\.')}`, 'i').test(body)) {
    throw new FeedParseError(`malformed XML: <${name}> is never closed`);
  }
}

interface FeedParserItem {
  title?: string | null;
  description?: string | null;
  summary?: string | null;
  link?: string | null;
  origlink?: string | null;
  permalink?: string | null;
  author?: string | null;
  guid?: string | null;
  date?: Date | null;
  pubdate?: Date | null;
  enclosures?: Array<{ url?: string; type?: string; length?: string | number }>;
  [key: string]: unknown;
}

function duration(item: FeedParserItem): string {
  const raw = item['itunes:duration'];
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)['#'] : raw;
  return typeof value === 'string' ? value.trim().slice(0, 32) : '';
}

function enclosureOf(item: FeedParserItem, base: string): EnclosureDoc | null {
  for (const enc of item.enclosures ?? []) {
    const url = httpUrl(enc.url, base);
    if (!url) continue;
    const length = enc.length === undefined || enc.length === null ? '' : String(enc.length).trim();
    return {
      url,
      type: typeof enc.type === 'string' ? enc.type.slice(0, 200) : '',
      length: /^\d{1,15}$/.test(length) ? length : '',
      duration: duration(item),
    };
  }
  return null;
}

function validDate(d: Date | null | undefined): Date | null {
  return d instanceof Date && !Number.isNaN(d.getTime()) ? d : null;
}

function feedTitle(meta: Record<string, unknown> | undefined): string | null {
  const atom = meta ? nodes(meta, 'atom:title')[0] : undefined;
  if (atom) return constructText(construct(atom), 1000, false);
  const rss = meta
    ? [...nodes(meta, 'rss:title'), ...nodes(meta, 'rdf:title'), ...nodes(meta, 'dc:title')][0]
    : undefined;
  return rss ? rssText(rss) : plainText(meta?.title);
}

/**
 * The entry's link, fragment kept; feedparser has resolved hrefs against xml:base and the document
 * URL. A canonical link first; in Atom the `alternate` link (no `rel` means alternate; `self` is the
 * entry document, not the page; an Atom 0.3 link may carry its URL as text); in RSS `<link>`. Without
 * one, a guid that is a permalink (RSS: not `isPermaLink="false"`) or an Atom id that is an absolute
 * http(s) URL, as Python feedparser does.
 */
function itemLink(item: FeedParserItem, feedUrl: string): string | null {
  const canonical = entryUrl(item.origlink, feedUrl);
  if (canonical) return canonical;
  const raw = item as RawItem;
  // Atom's <link href rel>, or RSS's <link>URL</link> (RSS feeds written with Atom-style links too).
  for (const l of ['atom:link', 'rss:link', 'rdf:link'].flatMap((key) => nodes(raw, key))) {
    const rel = (l['@']?.rel ?? '').trim().toLowerCase();
    if (rel !== '' && rel !== 'alternate') continue;
    const url = entryUrl(l['@']?.href || l['#'], feedUrl);
    if (url) return url;
  }
  // CDF: <ITEM HREF="…">.
  const cdf = entryUrl((raw['rss:@'] as Record<string, string> | undefined)?.href, feedUrl);
  if (cdf) return cdf;
  const guid = typeof item.guid === 'string' ? item.guid.trim() : '';
  const permalink = nodes(raw, 'atom:id').length > 0 || typeof item.permalink === 'string';
  return permalink && /^https?:\/\//i.test(guid) ? entryUrl(guid, feedUrl) : null;
}

function mapItem(item: FeedParserItem, feedUrl: string): ParsedItem {
  const link = itemLink(item, feedUrl);
  const title = itemTitle(item as RawItem);
  const author = itemAuthor(item as RawItem);
  return {
    guid: typeof item.guid === 'string' && item.guid.trim() !== '' ? item.guid.trim().slice(0, 2048) : null,
    link,
    title: title === undefined ? plainText(item.title) : title,
    // The entry's own authors only (not dc:publisher, not the channel's dc:creator, which npm feedparser
    // hands down); an Atom feed's authors are given to entries without any at the end of the document.
    author: author ?? null,
    contentHtml: itemContent(item as RawItem),
    published:
      itemDate(item as RawItem) ??
      parseFeedDate((item['rss:@'] as Record<string, string> | undefined)?.lastmod) ?? // CDF
      validDate(item.pubdate) ??
      validDate(item.date),
    enclosure: enclosureOf(item, link ?? feedUrl),
    jsonFeed: null,
  };
}

const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const VOID_ELEMENTS = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);

const escapeText = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (t: string) => escapeText(t).replace(/"/g, '&quot;');

/** What windows-1252 puts at 0x80–0x9F, for those of its bytes that are mapped. */
const C1_AS_WINDOWS_1252 = new Map(
  [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'].map((c, i) => [
    String.fromCharCode(0x80 + i),
    c,
  ]),
);

/**
 * C1 control characters (U+0080–U+009F, raw or as `&#146;`) are never meant as text: they are
 * windows-1252 bytes mislabelled as Latin-1 or Unicode, and read as the “smart quotes” they were
 * written as, as HTML's numeric references and Python feedparser read them.
 */
function windows1252Controls(text: string): string {
  return /[\u0080-\u009f]/.test(text)
    ? text.replace(/[\u0080-\u009f]/g, (c) => C1_AS_WINDOWS_1252.get(c) ?? c)
    : text;
}

interface SaxTag {
  name: string;
  local?: string;
  uri?: string;
}
interface FeedParserInternals {
  in_xhtml: boolean;
  xhtml: { '#name'?: string; '#'?: string };
  stack: Array<{
    '@'?: Record<string, string>;
    '#'?: string;
    '#name'?: string;
    '#local'?: string;
    '#uri'?: string;
  }>;
}

/**
 * Elements whose content is text or markup: Atom text constructs (1.0 and 0.3 names) and RSS's text
 * and content elements. An element inside one of them is markup written inline (Atom 0.3
 * `mode="xml"`, an XHTML `<div>` with a `type` other than xhtml, or undeclared `<b>` in a title), as
 * Python feedparser reads it, not a child element of the feed.
 */
const TEXT_CONTAINERS = new Set([
  'title', 'subtitle', 'tagline', 'summary', 'content', 'rights', 'copyright', 'info', 'description',
  'body', 'fullitem', 'encoded',
]); // prettier-ignore
/** The vocabularies those names are read in (none: RSS 0.9x/2.0 without a namespace). */
const TEXT_NAMESPACES = new Set([
  '', 'http://www.w3.org/2005/Atom', 'http://purl.org/atom/ns#', 'http://purl.org/rss/1.0/',
  'http://my.netscape.com/rdf/simple/0.9/', 'http://backend.userland.com/rss2',
  'http://purl.org/rss/1.0/modules/content/', 'http://purl.org/dc/elements/1.1/',
]); // prettier-ignore
/** Types under which inline text is already HTML (its markup arrived escaped): not escaped again. */
const HTML_TYPES = new Set(['html', 'text/html']);

/**
 * feedparser serialises inline XHTML (Atom type="xhtml") from sax events, but writes text and
 * attribute values as sax decoded them: `&lt;blink&gt;` became a <blink> tag, which a tag stripper then
 * removed. This subclass escapes them again, writes prefixed elements by their local name and treats
 * RSS `xhtml:body` as inline XHTML too.
 */
class FaithfulFeedParser extends (FeedParser as unknown as new (options: FeedParser.Options) => FeedParser) {
  private get internals(): FeedParserInternals {
    return this as unknown as FeedParserInternals;
  }

  /** Inline markup inside an html-typed construct: its text is HTML source, kept as it is. */
  private inlineHtml = false;

  handleText(raw: string): void {
    const text = windows1252Controls(raw);
    const p = this.internals;
    if (p.in_xhtml) p.xhtml['#'] += this.inlineHtml ? text : escapeText(text);
    else (FeedParser.prototype as unknown as { handleText(t: string): void }).handleText.call(this, text);
  }

  handleOpenTag(node: SaxTag): void {
    const p = this.internals;
    const parent = p.stack[0];
    if (!p.in_xhtml && node.local === 'body' && node.uri === XHTML_NS) {
      p.in_xhtml = true;
      this.inlineHtml = false;
      p.xhtml = { '#name': node.name, '#': '' };
    } else if (
      !p.in_xhtml &&
      parent?.['#name'] &&
      TEXT_CONTAINERS.has(parent['#local'] ?? '') &&
      TEXT_NAMESPACES.has(parent['#uri'] ?? '')
    ) {
      // An element inside a text construct: the construct holds inline markup from here on. The text
      // read so far moves into the markup; a construct typed as text becomes XHTML.
      const attrs = (parent['@'] ??= {});
      const type = (attrs.type ?? '').trim().toLowerCase();
      this.inlineHtml = HTML_TYPES.has(type);
      if (!this.inlineHtml) attrs.type = 'xhtml';
      const before = parent['#'] ?? '';
      parent['#'] = '';
      p.in_xhtml = true;
      p.xhtml = { '#name': parent['#name'], '#': this.inlineHtml ? before : escapeText(before) };
    }
    const before = p.in_xhtml ? (p.xhtml['#'] ?? '').length : -1;
    (FeedParser.prototype as unknown as { handleOpenTag(n: SaxTag): void }).handleOpenTag.call(this, node);
    if (before >= 0 && p.in_xhtml && (p.xhtml['#'] ?? '').length > before) {
      const attrs = Object.entries(p.stack[0]?.['@'] ?? {})
        .filter(([name]) => !name.includes(':') && name !== 'xmlns' && name !== '')
        .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
        .join('');
      const name = node.local || node.name;
      p.xhtml['#'] = `${(p.xhtml['#'] ?? '').slice(0, before)}<${name}${attrs}>`;
    }
  }

  handleCloseTag(el: string): void {
    const p = this.internals;
    const inside = p.in_xhtml && p.xhtml['#name'] !== el;
    const before = inside ? (p.xhtml['#'] ?? '').length : -1;
    (FeedParser.prototype as unknown as { handleCloseTag(n: string): void }).handleCloseTag.call(this, el);
    if (inside && p.in_xhtml) {
      const local = el.slice(el.indexOf(':') + 1);
      p.xhtml['#'] = (p.xhtml['#'] ?? '').slice(0, before) + (VOID_ELEMENTS.has(local) ? '' : `</${local}>`);
    }
  }
}

/** Text handed to the parser at a time; the event loop runs between two (a few ms each). */
const PARSE_CHUNK = 16 * 1024;
/** A document still not parsed after this much wall time is refused (a 15 MiB feed takes ~1.5 s). */
export const PARSE_BUDGET_MS = 10_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Above this size, each linear pre-check of a document gets its own turn of the event loop. */
const LARGE_DOCUMENT = 256 * 1024;

/**
 * `<atom:link rel="hub">` and `rel="self"` of the channel or feed (RSS carries them as atom:link, Atom
 * as its own links), hrefs resolved as feedparser resolved them against xml:base and the document URL.
 */
function xmlWebSub(meta: Record<string, unknown>, feedUrl: string): DocumentWebSub | null {
  const hubs: string[] = [];
  let self: string | null = null;
  for (const link of ['atom:link', 'atom10:link'].flatMap((key) => nodes(meta, key))) {
    const rels = (link['@']?.rel ?? '').trim().toLowerCase().split(/\s+/);
    const href = httpUrl(link['@']?.href, feedUrl);
    if (!href) continue;
    if (rels.includes('hub') && !hubs.includes(href)) hubs.push(href);
    if (rels.includes('self')) self ??= href;
  }
  return hubs.length === 0 && self === null ? null : { hubs, self };
}

export async function parseXmlFeed(document: string, feedUrl: string): Promise<ParsedFeed> {
  const body = readable(document);
  const large = body.length > LARGE_DOCUMENT;
  refuseEntityDeclarations(body);
  refuseUnclosedRoot(body);
  if (large) await nextTurn();
  if (nestingExceeds(body, MAX_XML_DEPTH)) {
    throw new FeedParseError(`XML nested deeper than ${MAX_XML_DEPTH} elements is refused`);
  }
  if (large) await nextTurn();
  return new Promise((resolve, reject) => {
    const parser = new FaithfulFeedParser({ feedurl: feedUrl, addmeta: false, resume_saxerror: true });
    // feedparser runs sax in non-strict mode, whose entity table is HTML's; keep XML's five only.
    const sax = (parser as unknown as { stream?: { _parser?: { ENTITIES?: unknown } } }).stream?._parser;
    if (sax && 'ENTITIES' in sax) sax.ENTITIES = Object.create(XML_ENTITIES);
    const items: ParsedItem[] = [];
    let failure: Error | undefined;
    parser.on('error', (err: Error) => {
      failure ??= err;
    });
    parser.on('readable', () => {
      let item: FeedParserItem | null;
      while ((item = parser.read() as FeedParserItem | null)) {
        // Only the first MAX_ITEMS_PER_FETCH are stored: the rest is read through, not mapped.
        if (items.length < MAX_ITEMS_PER_FETCH) items.push(mapItem(item, feedUrl));
      }
    });
    parser.on('end', () => {
      const meta = parser.meta as unknown as Record<string, unknown> | undefined;
      const type = meta?.['#type'];
      if (type !== 'rss' && type !== 'atom' && type !== 'rdf') {
        return reject(new FeedParseError(failure ? `not a feed (${failure.message})` : 'not a feed'));
      }
      if (failure && items.length === 0)
        return reject(new FeedParseError(`malformed XML: ${failure.message}`));
      // RFC 4287 §4.2.1: an Atom entry without authors (its own or its source's) has the feed's.
      const feedAuthors = type === 'atom' && meta ? feedAuthorNames(meta) : null;
      if (feedAuthors) for (const item of items) item.author ??= feedAuthors;
      const websub = meta ? xmlWebSub(meta, feedUrl) : null;
      resolve({
        format: type === 'atom' ? 'atom' : 'rss',
        ...(websub ? { websub } : {}),
        title: feedTitle(meta),
        siteUrl: httpUrl(meta?.link, feedUrl),
        jsonFeed: null,
        items,
      });
    });
    // Wall time on purpose: the budget bounds how long one document may hold a parse slot.
    const deadline = Date.now() + PARSE_BUDGET_MS;
    const feed = async () => {
      let at = 0;
      while (at < body.length) {
        let cut = Math.min(body.length, at + PARSE_CHUNK);
        if (cut < body.length && /[\uD800-\uDBFF]/.test(body[cut - 1]!)) cut++; // keep a surrogate pair whole
        parser.write(body.slice(at, cut));
        at = cut;
        if (Date.now() > deadline) {
          parser.removeAllListeners('end');
          return reject(new FeedParseError(`parsing took longer than ${PARSE_BUDGET_MS / 1000} s`));
        }
        if (at < body.length) await nextTurn();
      }
      parser.end();
    };
    // A throw inside the parser rejects this document's promise; it must not become an unhandled rejection.
    feed().catch((err: unknown) => {
      parser.removeAllListeners('end');
      reject(err);
    });
  });
}
