// Turning what a client sends as a post or page body into what is stored and shown (docs/api/publishing.md, "Post bodies"):
// a body with HTML tags is sanitised HTML; anything else is plain text, rendered escaped, with blank lines
// as paragraphs, line breaks kept and bare URLs linked. Mentions of existing users become links.
import { Parser } from 'htmlparser2';
import { capHtmlNesting, sanitizeHtmlFragment } from '@murmur/fetch';
import { escapeHtml } from '@murmur/http';
import { stripNonXmlCharacters } from '../xml-text.js';
import type { BodyFormat } from '../store.js';

const HTML_TAG = /<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>|<!--/;

export function looksLikeHtml(text: string): boolean {
  return HTML_TAG.test(text);
}

const BARE_URL = /\bhttps?:\/\/[^\s<>"']+/g;
const HAS_URL = /\bhttps?:\/\//;
const TRAILING_PUNCTUATION = new Set('.,;:!?)]}');

/**
 * Trailing punctuation belongs to the sentence, not the URL. A loop rather than `/[.,…]+$/`, which
 * restarts its scan at every character of a long run of punctuation (quadratic).
 */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(url.charAt(end - 1))) end--;
  return url.slice(0, end);
}

function linkify(line: string): string {
  let out = '';
  let last = 0;
  for (const match of line.matchAll(BARE_URL)) {
    const url = withoutTrailingPunctuation(match[0]);
    const start = match.index;
    out += escapeText(line.slice(last, start));
    out += `<a href="${escapeAttribute(url)}">${escapeText(url)}</a>`;
    last = start + url.length;
  }
  return out + escapeText(line.slice(last));
}

function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttribute(text: string): string {
  return escapeHtml(text);
}

/** Without leading and trailing line breaks (a loop: `/\n+$/` rescans a run at every position). */
function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 10) start++;
  while (end > start && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(start, end);
}

/** Plain text as HTML: paragraphs at blank lines, `<br>` at line breaks, bare URLs linked. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map(trimNewlines)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${p.split('\n').map(linkify).join('<br>\n')}</p>`)
    .join('\n');
}

const BLOCKS = new Set(
  'p div li h1 h2 h3 h4 h5 h6 blockquote pre tr dt dd figure figcaption details summary table ul ol hr'.split(
    ' ',
  ),
);

/** The text of sanitised HTML (entities decoded, blocks on their own lines) and the URLs of its images. */
export function readHtml(html: string): { text: string; photos: string[] } {
  let text = '';
  const photos: string[] = [];
  const parser = new Parser(
    {
      ontext: (t) => {
        text += t;
      },
      onopentag: (name, attribs) => {
        if (name === 'br') text += '\n';
        else if (BLOCKS.has(name)) text += '\n\n';
        if (name === 'img' && attribs.src) photos.push(attribs.src);
      },
      onclosetag: (name) => {
        if (BLOCKS.has(name)) text += '\n\n';
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const clean = text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text: clean, photos };
}

const MENTION = /(^|[^A-Za-z0-9_@/.])@([A-Za-z][A-Za-z0-9_]{0,29})(?![A-Za-z0-9_@])/g;
export const MAX_MENTIONS = 10;

/**
 * The text of a body with its tags removed (each tag counts as a space), by the HTML parser the
 * sanitiser uses: one pass whatever the input. A `/<[^>]*>/g` replace is quadratic on a run of `<`
 * without `>` (every `<` starts a scan to the end), which let one post block the process.
 */
export function textOfMarkup(body: string): string {
  // Without a `>` there is no tag to remove (the text as the regular expression left it).
  if (!body.includes('>')) return body;
  const parts: string[] = [];
  const space = () => parts.push(' ');
  const parser = new Parser(
    {
      ontext: (t) => parts.push(t),
      onopentag: space,
      onclosetag: space,
      oncomment: space,
      onprocessinginstruction: space,
    },
    { decodeEntities: false },
  );
  // The parser's open-element stack makes deep nesting quadratic; tags past the cap become spaces,
  // which is what every tag is here anyway (docs/security.md, the sanitiser section).
  parser.end(capHtmlNesting(body));
  return parts.join('');
}

/** Lower-case usernames written as `@name` in a body (tags removed first), first ones first. */
export function mentionCandidates(body: string): string[] {
  const text = textOfMarkup(body);
  const names: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const name = m[2]!.toLowerCase();
    if (!names.includes(name)) names.push(name);
    if (names.length >= MAX_MENTIONS) break;
  }
  return names;
}

export interface RenderedBody {
  /** What is stored and returned as `description`. */
  body: string;
  format: BodyFormat;
  html: string;
  text: string;
  photos: string[];
}

export interface RenderOptions {
  /** The site's URL, for relative links. */
  baseUrl: string;
  /** Known users by lower-case username → the URL their mention links to. */
  mentionUrls?: ReadonlyMap<string, string>;
}

export function renderBody(input: string, options: RenderOptions): RenderedBody {
  const clean = stripNonXmlCharacters(input);
  const urls = options.mentionUrls;
  const textFilter =
    urls && urls.size > 0
      ? (escaped: string) =>
          escaped.replace(MENTION, (whole, before: string, name: string) => {
            const url = urls.get(name.toLowerCase());
            return url === undefined
              ? whole
              : `${before}<a href="${escapeAttribute(url)}" rel="nofollow noopener noreferrer">@${name}</a>`;
          })
      : undefined;
  const sanitize = (html: string) =>
    sanitizeHtmlFragment(html, { baseUrl: options.baseUrl, ...(textFilter ? { textFilter } : {}) });

  if (looksLikeHtml(clean)) {
    const stored = sanitizeHtmlFragment(clean, { baseUrl: options.baseUrl });
    const html = textFilter ? sanitize(stored) : stored;
    const { text, photos } = readHtml(html);
    return { body: stored, format: 'html', html, text, photos };
  }
  // Plain text without links is all escaped text, <p> and <br>: the sanitiser would give it back
  // unchanged, at a cost of microseconds per escaped character (a second for 200,000 `<`).
  const plain = textToHtml(clean);
  const html = textFilter || HAS_URL.test(clean) ? sanitize(plain) : plain;
  return { body: clean, format: 'text', html, text: clean.replace(/\r\n?/g, '\n').trim(), photos: [] };
}
