// OPML 2.0 (docs/api/reader.md "OPML"): import with the strict `saxes` parser, hardened like every XML
// parser here against entity expansion and huge documents (any DOCTYPE refused, at most 20,000
// elements nested at most 64 deep), export with folders from taggings.
import { escapeHtml } from '@murmur/http';
import { SaxesParser } from 'saxes';

export const MAX_OPML_ELEMENTS = 20_000;
export const MAX_OPML_OUTLINES = 1000;
/**
 * Elements nested deeper are refused. Readers export folders one or two levels deep; a document
 * nested 100,000 deep otherwise made the parser hold 20,000 open elements before the element
 * limit stopped it, and its collector's pauses held the event loop up to 100 ms (issue 38's CI run).
 */
export const MAX_OPML_DEPTH = 64;

export interface OpmlFeed {
  title: string;
  feedUrl: string;
  /** Folder names (one level of folders maps to tags). */
  tags: string[];
}

/** The document is not usable OPML (→ 415 for an import). */
export class OpmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpmlError';
  }
}

/** Characters given to the parser between two turns of the event loop (an import may be 5 MiB). */
const OPML_SLICE_CHARS = 16 * 1024;

export async function parseOpml(xml: string): Promise<OpmlFeed[]> {
  const parser = new SaxesParser({ xmlns: false });
  const feeds: OpmlFeed[] = [];
  const seen = new Set<string>();
  const folders: Array<string | null> = [];
  let elements = 0;
  let depth = 0;
  let root: string | null = null;
  let failure: Error | null = null;
  parser.on('doctype', () => {
    throw new OpmlError('OPML with a DOCTYPE is refused');
  });
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    if (++elements > MAX_OPML_ELEMENTS) throw new OpmlError(`more than ${MAX_OPML_ELEMENTS} elements`);
    if (++depth > MAX_OPML_DEPTH) throw new OpmlError(`elements nested more than ${MAX_OPML_DEPTH} deep`);
    root ??= tag.name;
    if (tag.name !== 'outline') return;
    const attr = (name: string): string => {
      const v = tag.attributes[name];
      return typeof v === 'string' ? v.trim() : '';
    };
    const xmlUrl = attr('xmlUrl') || attr('xmlurl');
    const title = attr('title') || attr('text');
    if (xmlUrl === '') {
      folders.push(title === '' ? null : title);
      return;
    }
    folders.push(null);
    if (seen.has(xmlUrl)) return;
    seen.add(xmlUrl);
    if (feeds.length >= MAX_OPML_OUTLINES) throw new OpmlError(`more than ${MAX_OPML_OUTLINES} feeds`);
    const tags = folders.slice(0, -1).filter((f): f is string => f !== null);
    feeds.push({ title: title.slice(0, 255), feedUrl: xmlUrl.slice(0, 2048), tags: tags.slice(-1) });
  });
  parser.on('closetag', (tag) => {
    depth--;
    if (tag.name === 'outline') folders.pop();
  });
  try {
    for (let at = 0; at < xml.length; at += OPML_SLICE_CHARS) {
      // A surrogate pair is never split: saxes reads each write as whole characters.
      let end = Math.min(xml.length, at + OPML_SLICE_CHARS);
      if (end < xml.length && /[\uD800-\uDBFF]/.test(xml[end - 1]!)) end++;
      parser.write(xml.slice(at, end));
      if (failure) break;
      at = end - OPML_SLICE_CHARS;
      if (end < xml.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    parser.close();
  } catch (err) {
    if (err instanceof OpmlError) throw err;
    throw new OpmlError(`not well-formed XML: ${(err as Error).message}`);
  }
  if (failure) throw new OpmlError(`not well-formed XML: ${(failure as Error).message}`);
  if (root !== 'opml') throw new OpmlError('not an OPML document');
  return feeds;
}

export interface ExportedFeed {
  title: string;
  feedUrl: string;
  siteUrl: string;
  tags: string[];
}

// Characters XML 1.0 cannot carry are dropped from output (a reader would refuse the document).
// eslint-disable-next-line no-control-regex -- matching those control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xml = (text: string) => escapeHtml(text.replace(NOT_XML, ''));

/** OPML 2.0 with a folder per tag; untagged feeds at the top level. */
export function renderOpml(feeds: ExportedFeed[], ownerName: string, now: Date): string {
  const outline = (f: ExportedFeed, indent: string) =>
    `${indent}<outline text="${xml(f.title)}" title="${xml(f.title)}" type="rss" ` +
    `xmlUrl="${xml(f.feedUrl)}" htmlUrl="${xml(f.siteUrl)}"/>`;
  const byTag = new Map<string, ExportedFeed[]>();
  const untagged: ExportedFeed[] = [];
  for (const feed of feeds) {
    if (feed.tags.length === 0) untagged.push(feed);
    for (const tag of feed.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), feed]);
  }
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${xml(`${ownerName} subscriptions`)}</title>`,
    `    <dateCreated>${now.toUTCString()}</dateCreated>`,
    '  </head>',
    '  <body>',
  ];
  for (const [tag, tagged] of [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`    <outline text="${xml(tag)}" title="${xml(tag)}">`);
    for (const feed of tagged) lines.push(outline(feed, '      '));
    lines.push('    </outline>');
  }
  for (const feed of untagged) lines.push(outline(feed, '    '));
  lines.push('  </body>', '</opml>', '');
  return lines.join('\n');
}
