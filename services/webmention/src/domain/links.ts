// Does the source link to the target? (docs/api/webmention.md, "Verification"). HTML is read with a
// real parser (htmlparser2), so links inside comments, escaped markup or plain text never count; JSON
// counts any string value equal to the target; text/plain counts a substring; other types never link.
// Also the endpoint discovery of the sending side, on the same parser.
import { Parser } from 'htmlparser2';
import { capHtmlNesting } from '@murmur/fetch';
import { sameUrl, withoutFragment } from './urls.js';

const HREF_ELEMENTS = new Set(['a', 'area', 'link']);
const SRC_ELEMENTS = new Set(['img', 'video', 'audio', 'source']);

export type SourceKind = 'html' | 'json' | 'text' | 'other';

export function kindOf(contentType: string | undefined): SourceKind {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/plain') return 'text';
  // No type at all: sniffing is not our business; treat as other.
  return 'other';
}

interface ParsedLinks {
  /** Raw attribute values in document order. */
  values: string[];
  /** The first `<base href>`, if any. */
  base: string | undefined;
  /** `rel=webmention` hrefs of `<link>` and `<a>` in document order (null = no href attribute). */
  webmention: (string | null)[];
  title: string;
}

function scan(html: string): ParsedLinks {
  const out: ParsedLinks = { values: [], base: undefined, webmention: [], title: '' };
  let inTitle = false;
  let titleDone = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'base' && out.base === undefined && attrs.href !== undefined) out.base = attrs.href;
        if (HREF_ELEMENTS.has(name) && attrs.href !== undefined) out.values.push(attrs.href);
        if (SRC_ELEMENTS.has(name) && attrs.src !== undefined) out.values.push(attrs.src);
        if ((name === 'a' || name === 'link') && attrs.rel !== undefined) {
          const rels = attrs.rel.toLowerCase().split(/[\t\n\f\r ]+/);
          if (rels.includes('webmention')) out.webmention.push(attrs.href ?? null);
        }
        if (name === 'title' && !titleDone) inTitle = true;
      },
      ontext(text) {
        if (inTitle) out.title += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(capHtmlNesting(html));
  parser.end();
  out.title = out.title.replace(/\s+/g, ' ').trim();
  return out;
}

function resolve(value: string, base: string): string | undefined {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** The document's base: `<base href>` resolved against the final URL, else the final URL. */
function baseOf(parsed: ParsedLinks, finalUrl: string): string {
  return (parsed.base !== undefined ? resolve(parsed.base, finalUrl) : undefined) ?? finalUrl;
}

export function htmlLinksTo(html: string, finalUrl: string, target: string): boolean {
  const parsed = scan(html);
  const base = baseOf(parsed, finalUrl);
  const wanted = withoutFragment(new URL(target));
  return parsed.values.some((value) => {
    const url = resolve(value, base);
    return url !== undefined && sameUrl(url, wanted);
  });
}

export function htmlTitle(html: string): string {
  return scan(html).title;
}

export function jsonLinksTo(text: string, target: string): boolean {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return false;
  }
  // Iterative walk: a deeply nested document cannot exhaust the stack.
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value === target || sameUrl(value, target)) return true;
    } else if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return false;
}

export function linksTo(kind: SourceKind, body: string, finalUrl: string, target: string): boolean {
  switch (kind) {
    case 'html':
      return htmlLinksTo(body, finalUrl, target);
    case 'json':
      return jsonLinksTo(body, target);
    case 'text':
      return body.includes(target);
    default:
      return false;
  }
}

// --- sending: endpoint discovery ------------------------------------------------------------------

/** `rel="webmention"` targets of an HTTP Link header, resolved against `base`, in order. */
export function linkHeaderEndpoints(header: string | undefined, base: string): string[] {
  if (!header) return [];
  const found: string[] = [];
  // Split on commas that start a new `<…>` link (commas may appear inside URLs and quoted params).
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/s.exec(part);
    if (!match) continue;
    const params = match[2]!;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!rels.includes('webmention')) continue;
    const url = resolve(match[1]!, base);
    if (url !== undefined) found.push(url);
  }
  return found;
}

/** The first `<link>`/`<a rel="webmention">` with an href, resolved (an empty href is the page). */
export function htmlEndpoint(html: string, finalUrl: string): string | undefined {
  const parsed = scan(html);
  const base = baseOf(parsed, finalUrl);
  for (const href of parsed.webmention) {
    if (href === null) continue;
    const url = resolve(href, base);
    if (url !== undefined) return url;
  }
  return undefined;
}

/** Absolute http(s) links (`<a href>`) of one of our posts' HTML, fragments removed, in order. */
export function outgoingLinks(html: string, base: string): string[] {
  const links: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'a' && attrs.href !== undefined) {
          const url = resolve(attrs.href, base);
          if (url !== undefined && /^https?:$/.test(new URL(url).protocol))
            links.push(withoutFragment(new URL(url)));
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(capHtmlNesting(html));
  parser.end();
  return [...new Set(links)];
}
