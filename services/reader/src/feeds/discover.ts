// Feed discovery for a subscription request (docs/api/reader.md "Subscriptions"): the URL itself when it is a feed;
// otherwise the page's <link rel="alternate"> feeds, then <a> links that look like feeds, then the
// usual paths on the same origin. Every candidate is verified by fetching and parsing it. A page is
// read with the platform's sliced tag scan, its first DISCOVERY_SCAN_CHARS only (docs/security.md,
// "Parsing fetched documents"): whatever its size or nesting, it never holds the event loop.
import { FETCH_LIMITS, FetchError, scanHtml, type FetchResponse } from '@murmur/fetch';
import type { FeedFetcher } from './fetcher.js';
import { httpUrl } from './html.js';
import { parseFetched, type Fetched } from './parse.js';
import type { ParseBody } from './parsing.js';
import { FeedParseError, type ParsedFeed } from './types.js';
import { webSubTarget, type WebSubTarget } from './websub.js';

const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
  'application/json',
  'application/rdf+xml',
  'text/xml',
  'application/xml',
]);
const PROBE_PATHS = ['/feed', '/rss', '/index.xml', '/atom.xml', '/feed.json'];
const FEEDISH_LINK = /(?:rss|atom|feed|\.xml$|\.json$|\.rdf$)/i;
const MAX_CANDIDATES = 8;
/** Feed-looking anchors kept (only the first MAX_CANDIDATES distinct ones are tried). */
const MAX_ANCHORS = 1000;
/**
 * Characters of a page read for its links: the `<head>` of any real page and the top of its body
 * (where "RSS" links are); a feed linked only further down is found by the usual paths, or not.
 */
export const DISCOVERY_SCAN_CHARS = 512 * 1024;
/**
 * The whole discovery answers within this, so the client gets its 404 before the gateway's upstream
 * timeout (30 s) cuts the request; a fetch never gets more than what is left of it.
 */
export const DISCOVERY_BUDGET_MS = 25_000;
const MIN_FETCH_MS = 500;

export interface VerifiedFeed {
  /** The URL to store: the final URL after permanent redirects, else the one requested. */
  url: string;
  feed: ParsedFeed;
  etag: string | null;
  lastModified: string | null;
  /** The hub it names and the topic to subscribe with (feeds/websub.ts), or null. */
  websub: WebSubTarget | null;
}

interface PageLinks {
  alternates: string[];
  anchors: string[];
}

/**
 * `<link rel="alternate">` feeds of <head> and `<a href>` of <body>, resolved against <base>/the page,
 * from the first DISCOVERY_SCAN_CHARS of the page.
 */
export async function pageLinks(html: string, pageUrl: string): Promise<PageLinks> {
  let base = pageUrl;
  let inHead = true;
  const alternates: string[] = [];
  const anchors: string[] = [];
  const collect = (name: string, attrs: Record<string, string>) => {
    if (name === 'body') inHead = false;
    if (name === 'base' && attrs.href) base = httpUrl(attrs.href, pageUrl) ?? base;
    if (name === 'link' && inHead) {
      const rels = (attrs.rel ?? '').toLowerCase().split(/\s+/);
      const type = (attrs.type ?? '').toLowerCase().split(';')[0]!.trim();
      const href = httpUrl(attrs.href, base);
      if (rels.includes('alternate') && FEED_TYPES.has(type) && href) alternates.push(href);
    }
    if (name === 'a' && attrs.href && anchors.length < MAX_ANCHORS) {
      const href = httpUrl(attrs.href, base);
      if (href && FEEDISH_LINK.test(new URL(href).pathname + new URL(href).search)) anchors.push(href);
    }
  };
  await scanHtml(html, { onopentag: collect }, { maxChars: DISCOVERY_SCAN_CHARS });
  return { alternates: [...new Set(alternates)], anchors: [...new Set(anchors)] };
}

interface Fetch {
  response: FetchResponse;
  parsed: Fetched;
}

async function fetchAndParse(
  fetcher: FeedFetcher,
  url: string,
  deadline: number,
  parse: ParseBody,
): Promise<Fetch | null> {
  const left = deadline - Date.now();
  if (left < MIN_FETCH_MS) return null;
  let response: FetchResponse;
  try {
    response = await fetcher.fetch(url, {
      limits: { ...FETCH_LIMITS.feed, timeoutMs: Math.min(FETCH_LIMITS.feed.timeoutMs, left) },
    });
  } catch (err) {
    if (err instanceof FetchError) return null;
    throw err;
  }
  if (response.status < 200 || response.status > 299) return null;
  try {
    const parsed = await parse(response.body, response.headers['content-type'], response.url);
    return { response, parsed };
  } catch (err) {
    if (err instanceof FeedParseError) return null;
    throw err;
  }
}

function verified(requested: string, fetched: Fetch): VerifiedFeed | null {
  if (fetched.parsed.kind !== 'feed') return null;
  const { response } = fetched;
  return {
    url: response.permanentRedirect ? response.url : requested,
    feed: fetched.parsed.feed,
    etag: response.headers.etag ?? null,
    lastModified: response.headers['last-modified'] ?? null,
    websub: webSubTarget(response.headers, fetched.parsed.feed, response.url),
  };
}

async function verifyAll(
  fetcher: FeedFetcher,
  urls: string[],
  deadline: number,
  parse: ParseBody,
): Promise<VerifiedFeed[]> {
  const results = await Promise.all(
    urls.slice(0, MAX_CANDIDATES).map(async (url) => {
      const fetched = await fetchAndParse(fetcher, url, deadline, parse);
      return fetched ? verified(url, fetched) : null;
    }),
  );
  const seen = new Set<string>();
  return results.filter((r): r is VerifiedFeed => r !== null && !seen.has(r.url) && !!seen.add(r.url));
}

/** The feeds `url` leads to: none (not found, unreachable, refused by the guard), one, or several. */
export async function discoverFeeds(
  fetcher: FeedFetcher,
  url: string,
  budgetMs = DISCOVERY_BUDGET_MS,
  parse: ParseBody = parseFetched,
): Promise<VerifiedFeed[]> {
  // Wall time on purpose: the budget bounds real network waiting, which a test clock does not move.
  const deadline = Date.now() + budgetMs;
  const first = await fetchAndParse(fetcher, url, deadline, parse);
  if (!first) return [];
  const direct = verified(url, first);
  if (direct) return [direct];
  if (first.parsed.kind !== 'html') return [];

  const links = await pageLinks(first.parsed.html, first.response.url);
  const fromAlternates = await verifyAll(fetcher, links.alternates, deadline, parse);
  if (fromAlternates.length > 0) return fromAlternates;
  const fromAnchors = await verifyAll(fetcher, links.anchors, deadline, parse);
  if (fromAnchors.length > 0) return fromAnchors;

  const origin = new URL(first.response.url).origin;
  for (const path of PROBE_PATHS) {
    const found = await verifyAll(fetcher, [`${origin}${path}`], deadline, parse);
    if (found.length > 0) return found;
  }
  return [];
}
