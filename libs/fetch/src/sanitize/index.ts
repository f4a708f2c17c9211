// The one HTML sanitiser (docs/security.md, HTML), applied when third-party or user HTML is stored: feed entries
// (reader), post and page bodies (publishing), and later webmention content and archive imports.
// Relative URLs are resolved against the document's URL first; protocol-relative ones are then refused.
import sanitizeHtml from 'sanitize-html';
import { capHtmlNesting } from './nesting.js';

export { capHtmlNesting, MAX_HTML_NESTING } from './nesting.js';

const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'cite', 'code', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt',
  'em', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'ins', 'kbd', 'li',
  'mark', 'ol', 'p', 'pre', 'q', 's', 'small', 'span', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul', 'audio', 'video', 'source', 'picture',
]; // prettier-ignore

const MEDIA_ATTRIBUTES = ['src', 'controls', 'poster', 'width', 'height'];
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  audio: MEDIA_ATTRIBUTES,
  video: MEDIA_ATTRIBUTES,
  source: ['src', 'type'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  time: ['datetime'],
  blockquote: ['cite'],
  q: ['cite'],
  ol: ['start'],
};

/** Removed together with everything inside them (form controls too: their text is not content). */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math', 'form',
  'textarea', 'select', 'button', 'option',
]; // prettier-ignore

const URL_ATTRIBUTES = ['href', 'src', 'poster', 'cite'];
const WEB_ONLY = ['http', 'https'];

/** Every link we store or render from others' HTML carries this `rel`. */
export const LINK_REL = 'nofollow noopener noreferrer';

/**
 * A path- or root-relative reference resolved against `base`. Absolute and protocol-relative values are
 * left for the scheme rules to judge; a reference that cannot be resolved is dropped (`''`).
 */
function resolveReference(value: string, base: string | null): string {
  const v = value.trim();
  if (v === '' || v.startsWith('//') || v.startsWith('\\\\') || /^[a-z][a-z0-9+.-]*:/i.test(v)) return v;
  if (base === null) return v;
  try {
    return new URL(v, base).href;
  } catch {
    return '';
  }
}

export interface SanitizeOptions {
  /** The document's URL: relative references are resolved against it (null: left as they are). */
  baseUrl: string | null;
  /**
   * Called with each run of text outside links, already HTML-escaped; returns HTML to put in its place
   * (publishing turns @mentions into links this way).
   */
  textFilter?: (escapedText: string) => string;
}

export function sanitizeHtmlFragment(html: string, options: SanitizeOptions): string {
  let linkDepth = 0;
  const filter = options.textFilter;
  // The parser underneath costs depth² on deeply nested markup: cap the depth first (linear).
  return sanitizeHtml(capHtmlNesting(html), {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: {
      img: WEB_ONLY,
      audio: WEB_ONLY,
      video: WEB_ONLY,
      source: WEB_ONLY,
      blockquote: WEB_ONLY,
      q: WEB_ONLY,
    },
    allowedSchemesAppliedToAttributes: URL_ATTRIBUTES,
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: DROPPED_WITH_CONTENT,
    transformTags: {
      '*': (tagName, attribs) => {
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(attribs)) {
          out[name] = URL_ATTRIBUTES.includes(name) ? resolveReference(value, options.baseUrl) : value;
        }
        if (tagName === 'a') out.rel = LINK_REL;
        return { tagName, attribs: out };
      },
    },
    ...(filter
      ? {
          onOpenTag: (name: string) => {
            if (name === 'a') linkDepth++;
          },
          onCloseTag: (name: string) => {
            if (name === 'a' && linkDepth > 0) linkDepth--;
          },
          textFilter: (text: string) => (linkDepth > 0 ? text : filter(text)),
        }
      : {}),
  });
}
