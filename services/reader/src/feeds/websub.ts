// WebSub discovery of a fetched feed (docs/api/reader.md "WebSub"): the hub to subscribe to and the
// topic to subscribe with. HTTP `Link` headers come first; the document's own links (Atom/RSS
// `atom:link`, JSON Feed `hubs` and `feed_url`) only when the headers name no hub. The topic is the
// self URL of the same source, else the URL the feed was fetched from.
import { httpUrl } from './html.js';
import type { ParsedFeed } from './types.js';

export interface WebSubTarget {
  hub: string;
  topic: string;
}

/** Every `<url>; rel="…"` of a Link header value (RFC 8288), URLs resolved against `base`. */
export function linkHeaderRels(
  header: string | undefined,
  base: string,
): Array<{ url: string; rels: string[] }> {
  if (!header) return [];
  const out: Array<{ url: string; rels: string[] }> = [];
  // A link value is `<URI-reference>` followed by `;`-separated parameters; values are separated by `,`
  // outside the brackets and quotes.
  const re = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;
  for (const m of header.matchAll(re)) {
    const url = httpUrl(m[1]!.trim(), base);
    if (!url) continue;
    let rels: string[] = [];
    for (const p of m[2]!.matchAll(/;\s*([^;,=\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g)) {
      if (p[1]!.toLowerCase() !== 'rel') continue;
      rels = (p[2] ?? p[3] ?? '').trim().toLowerCase().split(/\s+/);
      break;
    }
    out.push({ url, rels });
  }
  return out;
}

/**
 * The hub and topic of a fetched feed, or null when it names no hub. `url` is where the document was
 * fetched (after redirects), `headers` its response headers (lower-case names).
 */
export function webSubTarget(
  headers: Record<string, string | undefined>,
  feed: ParsedFeed,
  url: string,
): WebSubTarget | null {
  const links = linkHeaderRels(headers.link, url);
  const headerHub = links.find((l) => l.rels.includes('hub'))?.url;
  if (headerHub) {
    const self = links.find((l) => l.rels.includes('self'))?.url;
    return { hub: headerHub, topic: self ?? url };
  }
  const hub = feed.websub?.hubs[0];
  if (!hub) return null;
  return { hub, topic: feed.websub?.self ?? url };
}
