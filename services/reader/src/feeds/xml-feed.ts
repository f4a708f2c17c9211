// RSS 0.9x/1.0/2.0 and Atom 1.0 through feedparser (over sax), hardened against entity expansion: a
// document declaring entities or carrying a DOCTYPE internal subset is refused before parsing, and
// only the five predefined entities (plus numeric references) are decoded.
import FeedParser from 'feedparser';
import type { EnclosureDoc } from '../store/index.js';
import { httpUrl, plainText } from './html.js';
import { FeedParseError, type ParsedFeed, type ParsedItem } from './types.js';

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

function rootName(body: string): string | null {
  return findRoot(body)?.name ?? null;
}

/** Does the document look like RSS, RDF or Atom (root element name)? */
export function looksLikeXmlFeed(body: string): boolean {
  const name = rootName(body);
  return name === 'rss' || name === 'feed' || name === 'rdf:rdf' || (name?.endsWith(':rdf') ?? false);
}

/**
 * sax in non-strict mode accepts a document that simply stops (a cut-off download); feedparser then
 * reports a feed without items. A document whose root element is never closed is refused instead.
 */
function refuseUnclosedRoot(body: string): void {
  const name = rootName(body);
  if (name !== null && !body.toLowerCase().includes(`</${name}`)) {
    throw new FeedParseError(`malformed XML: <${name}> is never closed`);
  }
}

interface FeedParserItem {
  title?: string | null;
  description?: string | null;
  summary?: string | null;
  link?: string | null;
  origlink?: string | null;
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

function mapItem(item: FeedParserItem, feedUrl: string): ParsedItem {
  const link = httpUrl(item.origlink, feedUrl) ?? httpUrl(item.link, feedUrl);
  const html = item.description ?? item.summary ?? null;
  return {
    guid: typeof item.guid === 'string' && item.guid.trim() !== '' ? item.guid.trim().slice(0, 2048) : null,
    link,
    title: plainText(item.title),
    author: plainText(item.author, 200),
    contentHtml: typeof html === 'string' && html.trim() !== '' ? html : null,
    published: validDate(item.pubdate) ?? validDate(item.date),
    enclosure: enclosureOf(item, link ?? feedUrl),
    jsonFeed: null,
  };
}

export function parseXmlFeed(body: string, feedUrl: string): Promise<ParsedFeed> {
  refuseEntityDeclarations(body);
  refuseUnclosedRoot(body);
  return new Promise((resolve, reject) => {
    const parser = new FeedParser({ feedurl: feedUrl, addmeta: false, resume_saxerror: true });
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
      while ((item = parser.read() as FeedParserItem | null)) items.push(mapItem(item, feedUrl));
    });
    parser.on('end', () => {
      const meta = parser.meta as unknown as Record<string, unknown> | undefined;
      const type = meta?.['#type'];
      if (type !== 'rss' && type !== 'atom' && type !== 'rdf') {
        return reject(new FeedParseError(failure ? `not a feed (${failure.message})` : 'not a feed'));
      }
      if (failure && items.length === 0)
        return reject(new FeedParseError(`malformed XML: ${failure.message}`));
      resolve({
        format: type === 'atom' ? 'atom' : 'rss',
        title: plainText(meta?.title),
        siteUrl: httpUrl(meta?.link, feedUrl),
        jsonFeed: null,
        items,
      });
    });
    parser.end(body);
  });
}
