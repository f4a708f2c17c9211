// The one HTML sanitiser of post and page bodies (security.md §8), applied when a body is stored.
// Relative URLs are resolved against the site's URL first; protocol-relative ones are then refused.
import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = (
  'a abbr b blockquote br cite code dd del details dfn div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 ' +
  'hr i img ins kbd li mark ol p pre q s small span strong sub summary sup table tbody td tfoot th thead ' +
  'time tr u ul audio video source picture'
).split(' ');

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

const WEB_ONLY = ['http', 'https'];
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
  'form',
  'textarea',
  'select',
  'button',
  'option',
];

export const LINK_REL = 'nofollow noopener noreferrer';
const URL_ATTRIBUTES = ['href', 'src', 'poster', 'cite'];

function resolveAgainst(value: string, baseUrl: string): string {
  const v = value.trim();
  // Absolute (any scheme) and protocol-relative values are left for the scheme rules to judge.
  if (/^[a-z][a-z0-9+.-]*:/i.test(v) || v.startsWith('//') || v.startsWith('\\\\')) return v;
  try {
    return new URL(v, baseUrl).href;
  } catch {
    return '';
  }
}

export interface SanitizeOptions {
  /** Relative URLs are resolved against this (the site's URL). */
  baseUrl: string;
  /**
   * Called with each run of text outside links, already HTML-escaped; returns HTML to put in its place
   * (mentions become links this way).
   */
  textFilter?: (escapedText: string) => string;
}

export function sanitizeBody(html: string, options: SanitizeOptions): string {
  let linkDepth = 0;
  const filter = options.textFilter;
  return sanitizeHtml(html, {
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
          out[name] = URL_ATTRIBUTES.includes(name) ? resolveAgainst(value, options.baseUrl) : value;
        }
        if (tagName === 'a') out.rel = LINK_REL;
        return { tagName, attribs: out };
      },
    },
    onOpenTag: (name) => {
      if (name === 'a') linkDepth++;
    },
    onCloseTag: (name) => {
      if (name === 'a' && linkDepth > 0) linkDepth--;
    },
    ...(filter ? { textFilter: (text: string) => (linkDepth > 0 ? text : filter(text)) } : {}),
  });
}
