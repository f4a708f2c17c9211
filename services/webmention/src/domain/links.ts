// Does the source link to the target? (docs/api/webmention.md, "Verification"). HTML is read with a
// real tokenizer (the platform's sliced tag scan, on htmlparser2's), so links inside comments, escaped
// markup or plain text never count; JSON counts any string value equal to the target; text/plain
// counts a substring; other types never link. Also the endpoint discovery of the sending side, on the
// same scan. Every reading yields to the event loop as it goes (docs/security.md, "Parsing fetched
// documents"): a hostile source holds it no longer than a slice.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { scanHtml } from '@murmur/fetch';
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

export interface ParsedLinks {
  /** Raw attribute values in document order. */
  values: string[];
  /** The first `<base href>`, if any. */
  base: string | undefined;
  /** `rel=webmention` hrefs of `<link>` and `<a>` in document order (null = no href attribute). */
  webmention: (string | null)[];
  title: string;
}

/**
 * The links, base, webmention endpoints and title of an HTML page. `untilEndpoint` stops at the first
 * webmention endpoint with an href (the sending side needs no more).
 */
export async function scanLinks(html: string, untilEndpoint = false): Promise<ParsedLinks> {
  const out: ParsedLinks = { values: [], base: undefined, webmention: [], title: '' };
  let inTitle = false;
  let titleDone = false;
  await scanHtml(html, {
    onopentag(name, attrs) {
      if (name === 'base' && out.base === undefined && attrs.href !== undefined) out.base = attrs.href;
      if (HREF_ELEMENTS.has(name) && attrs.href !== undefined) out.values.push(attrs.href);
      if (SRC_ELEMENTS.has(name) && attrs.src !== undefined) out.values.push(attrs.src);
      if ((name === 'a' || name === 'link') && attrs.rel !== undefined) {
        const rels = attrs.rel.toLowerCase().split(/[\t\n\f\r ]+/);
        if (rels.includes('webmention')) {
          out.webmention.push(attrs.href ?? null);
          if (untilEndpoint && attrs.href !== undefined) return false;
        }
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
  });
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

/** URLs compared with the target per turn of the event loop (each comparison parses URLs). */
const URLS_PER_TURN = 2000;

/** Whether the scanned page links `target` (resolved against its base and `finalUrl`). */
export async function htmlLinksTo(parsed: ParsedLinks, finalUrl: string, target: string): Promise<boolean> {
  const base = baseOf(parsed, finalUrl);
  const wanted = withoutFragment(new URL(target));
  for (let i = 0; i < parsed.values.length; i++) {
    const url = resolve(parsed.values[i]!, base);
    if (url !== undefined && sameUrl(url, wanted)) return true;
    if ((i + 1) % URLS_PER_TURN === 0) await nextTurn();
  }
  return false;
}

export async function jsonLinksTo(text: string, target: string): Promise<boolean> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return false;
  }
  // Iterative walk: a deeply nested document cannot exhaust the stack; a turn of the event loop every
  // URLS_PER_TURN strings.
  const stack: unknown[] = [doc];
  let compared = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value === target || sameUrl(value, target)) return true;
      if (++compared % URLS_PER_TURN === 0) await nextTurn();
    } else if (Array.isArray(value)) for (const item of value) stack.push(item);
    else if (value !== null && typeof value === 'object')
      for (const item of Object.values(value)) stack.push(item);
  }
  return false;
}

/** Whether the source (of `kind`, its body `body`, fetched from `finalUrl`) links `target`. */
export async function linksTo(
  kind: SourceKind,
  body: string | ParsedLinks,
  finalUrl: string,
  target: string,
): Promise<boolean> {
  if (typeof body !== 'string') return htmlLinksTo(body, finalUrl, target);
  switch (kind) {
    case 'html':
      return htmlLinksTo(await scanLinks(body), finalUrl, target);
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
export async function htmlEndpoint(html: string, finalUrl: string): Promise<string | undefined> {
  const parsed = await scanLinks(html, true);
  const base = baseOf(parsed, finalUrl);
  for (const href of parsed.webmention) {
    if (href === null) continue;
    const url = resolve(href, base);
    if (url !== undefined) return url;
  }
  return undefined;
}

/** Absolute http(s) links (`<a href>`) of one of our posts' HTML, fragments removed, in order. */
export async function outgoingLinks(html: string, base: string): Promise<string[]> {
  const links: string[] = [];
  await scanHtml(html, {
    onopentag(name, attrs) {
      if (name === 'a' && attrs.href !== undefined) {
        const url = resolve(attrs.href, base);
        if (url !== undefined && /^https?:$/.test(new URL(url).protocol))
          links.push(withoutFragment(new URL(url)));
      }
    },
  });
  return [...new Set(links)];
}
