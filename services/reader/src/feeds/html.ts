// HTML from feeds: made absolute, then sanitised when stored with the platform's one policy
// (docs/platform.md "sanitize"), since it is third-party markup shown in clients; plain text derived
// from it for summaries, titles and recaps.
import { Parser } from 'htmlparser2';
import { capHtmlNesting, sanitizeHtmlFragment } from '@murmur/fetch';

/** Sanitised HTML with absolute URLs; links get `rel="nofollow noopener noreferrer"` (one policy: platform). */
export function sanitizeContent(html: string, baseUrl: string | null): string {
  return sanitizeHtmlFragment(html, { baseUrl }).trim();
}

const BLOCK_TAGS = new Set([
  'p', 'div', 'br', 'li', 'ul', 'ol', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'td',
  'th', 'figure', 'figcaption', 'hr', 'dd', 'dt', 'table', 'section', 'article', 'header', 'footer',
]); // prettier-ignore
const SKIPPED_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math']);

/**
 * Visible text of an HTML fragment: tags removed, entities decoded, whitespace collapsed. With
 * `everything`, the text of script-like elements is kept too (a title's words, as the author typed them).
 */
export function htmlToText(html: string, everything = false): string {
  const parts: string[] = [];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED_TEXT.has(name) && !everything) skipping++;
        if (BLOCK_TAGS.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (SKIPPED_TEXT.has(name) && !everything) skipping = Math.max(0, skipping - 1);
        if (BLOCK_TAGS.has(name)) parts.push(' ');
      },
      ontext(text) {
        if (skipping === 0) parts.push(text);
      },
    },
    { decodeEntities: true },
  );
  // Deep nesting costs the parser depth²: capped first, as the platform sanitiser does.
  parser.write(capHtmlNesting(html));
  parser.end();
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Plain text cut to at most `max` characters, at a word boundary where there is one. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 3);
  const space = cut.lastIndexOf(' ');
  // Three ASCII dots: one non-Latin-1 character would double the memory of the whole string.
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}...`;
}

/** Plain text of a title-like value (feeds put markup and entities in titles); null when empty. */
export function plainText(value: unknown, max = 1000): string | null {
  if (typeof value !== 'string') return null;
  const text = htmlToText(value);
  return text === '' ? null : truncateText(text, max);
}

/** An absolute http(s) URL from `value` (resolved against `base`), without its fragment; or null. */
export function httpUrl(value: unknown, base: string | null = null): string | null {
  return absoluteUrl(value, base, false);
}

/**
 * An entry's link as the feed gives it, resolved, fragment kept: `…/26.html#a080605` and
 * `…/26.html#a100632` are two posts, and a tracking fragment is the publisher's choice.
 */
export function entryUrl(value: unknown, base: string | null = null): string | null {
  return absoluteUrl(value, base, true);
}

function absoluteUrl(value: unknown, base: string | null, keepFragment: boolean): string | null {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 2048) return null;
  try {
    const url = base === null ? new URL(value.trim()) : new URL(value.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    if (!keepFragment) url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
