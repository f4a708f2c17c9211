// WordPress WXR exports (docs/api/archive.md "Importing", docs/security.md "XML hardening"): streamed
// through the strict `saxes` parser. Any DOCTYPE refuses the document, so no entity is ever declared
// or expanded (an undeclared entity is a parse error); depth ≤ 32; a text node over 5 MiB skips its
// item without holding more. Only items with `wp:post_type` post and `wp:status` publish become
// posts; drafts, pages, attachments and menu items are counted as skipped.
import { TextDecoder } from 'node:util';
import { SaxesParser } from 'saxes';
import { MAX_ITEM_CONTENT, type RawItem } from '../items.js';
import { ImportError } from './errors.js';

export const MAX_WXR_DEPTH = 32;
const SLICE = 64 * 1024;

export type Parsed = { item: RawItem } | { skipped: string };

/** The decoder of the declared encoding; UTF-8 when none is declared. Unknown ones are refused. */
function decoderFor(head: Uint8Array): TextDecoder {
  if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe)) {
    throw new ImportError('The WXR file is UTF-16; only UTF-8 and ISO-8859-1 exports are read.');
  }
  const start = Buffer.from(head.subarray(0, 512)).toString('latin1');
  const declared = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    start.replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, ''),
  )?.[1];
  const name = (declared ?? 'utf-8').toLowerCase();
  if (name === 'utf-8' || name === 'utf8') return new TextDecoder('utf-8', { fatal: true });
  if (['iso-8859-1', 'latin1', 'iso_8859-1', 'windows-1252', 'cp1252', 'us-ascii', 'ascii'].includes(name)) {
    return new TextDecoder('windows-1252');
  }
  throw new ImportError(
    `The WXR file declares the encoding ${declared}; only UTF-8 and ISO-8859-1 are read.`,
  );
}

interface ItemState {
  fields: Map<string, string>;
  tags: string[];
  oversize: boolean;
}

/** Child elements of `<item>` whose text we keep. */
const FIELDS = new Set([
  'title',
  'link',
  'guid',
  'pubDate',
  'content:encoded',
  'wp:post_id',
  'wp:post_date_gmt',
  'wp:post_date',
  'wp:status',
  'wp:post_type',
  'category',
]);

export async function* parseWxr(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Parsed[]> {
  const parser = new SaxesParser({ xmlns: false });
  let out: Parsed[] = [];
  let depth = 0;
  let root: string | null = null;
  let item: ItemState | null = null;
  let field: string | null = null;
  let fieldText = '';
  let categoryDomain = '';

  parser.on('doctype', () => {
    throw new ImportError('The WXR file is refused: it has a DOCTYPE (no entities are expanded).');
  });
  parser.on('error', (err) => {
    throw err instanceof ImportError
      ? err
      : new ImportError(`The WXR file is not well-formed XML: ${err.message}`);
  });
  parser.on('opentag', (tag) => {
    if (++depth > MAX_WXR_DEPTH)
      throw new ImportError(`The WXR file nests deeper than ${MAX_WXR_DEPTH} elements.`);
    root ??= tag.name;
    if (tag.name === 'item' && item === null) {
      item = { fields: new Map(), tags: [], oversize: false };
      return;
    }
    if (item !== null && field === null && FIELDS.has(tag.name)) {
      field = tag.name;
      fieldText = '';
      const domain = tag.attributes.domain;
      categoryDomain = typeof domain === 'string' ? domain : '';
    }
  });
  const onText = (text: string) => {
    if (item === null || field === null || item.oversize) return;
    if (fieldText.length + text.length > MAX_ITEM_CONTENT) {
      item.oversize = true;
      fieldText = '';
      return;
    }
    fieldText += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    depth--;
    if (item === null) return;
    if (field !== null && tag.name === field) {
      if (field === 'category') {
        if (categoryDomain === 'category' || categoryDomain === 'post_tag' || categoryDomain === '') {
          item.tags.push(fieldText.trim());
        }
      } else {
        item.fields.set(field, fieldText);
      }
      field = null;
      fieldText = '';
      return;
    }
    if (tag.name === 'item') {
      out.push(finish(item));
      item = null;
    }
  });

  let decoder: TextDecoder | null = null;
  try {
    for await (const chunk of chunks) {
      decoder ??= decoderFor(chunk);
      const text = decode(decoder, chunk);
      // In slices, so items reach the store while a large chunk is still being parsed.
      for (let at = 0; at < text.length; at += SLICE) {
        parser.write(text.slice(at, at + SLICE));
        if (out.length > 0) {
          yield out;
          out = [];
        }
      }
    }
    if (decoder) parser.write(decode(decoder));
    parser.close();
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError(`The WXR file is not well-formed XML: ${(err as Error).message}`);
  }
  if (root !== 'rss') throw new ImportError('Not a WordPress export (the root element is not rss).');
  if (out.length > 0) yield out;
}

function decode(decoder: TextDecoder, chunk?: Uint8Array): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    throw new ImportError('The WXR file is not valid UTF-8.');
  }
}

const BLOCK_TAG = /<\/?(p|div|h[1-6]|ul|ol|li|blockquote|pre|table|figure|hr|section|article)\b/i;

/**
 * WordPress stores a classic post's paragraphs as blank lines (it adds the `<p>`s when it renders, and
 * the export carries the stored text): content without block elements gets its paragraphs and line
 * breaks back, the way WordPress shows it. Content with blocks (Gutenberg, hand-written HTML) is kept.
 */
export function autop(html: string): string {
  if (BLOCK_TAG.test(html) || !html.includes('\n')) return html;
  return html
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

function finish(item: ItemState): Parsed {
  const f = item.fields;
  const type = (f.get('wp:post_type') ?? '').trim();
  const status = (f.get('wp:status') ?? '').trim();
  if (type !== 'post') return { skipped: `post type ${type || 'none'}` };
  if (status !== 'publish') return { skipped: `status ${status || 'none'}` };
  if (item.oversize) return { skipped: 'content too large' };
  const gmt = (f.get('wp:post_date_gmt') ?? '').trim();
  const published = gmt !== '' && !gmt.startsWith('0000') ? gmt : (f.get('wp:post_date') ?? f.get('pubDate'));
  return {
    item: {
      id: (f.get('wp:post_id') ?? '').trim() || (f.get('guid') ?? '').trim(),
      url: f.get('link')?.trim(),
      title: f.get('title'),
      contentHtml: autop(f.get('content:encoded') ?? ''),
      published,
      tags: item.tags,
    },
  };
}
