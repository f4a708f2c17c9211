// Which topics the hub serves (docs/api/websub.md, "Topics"): Murmur's own public feeds — each site's
// feed.xml and feed.json (below PUBLIC_URL or on the site's own host), a user's timeline, mentions and
// webmentions, the photos feed and the blogroll — and, when the operator allows their host
// (WEBSUB_PUBLISHER_HOSTS), the topics of external publishers. Anything else is refused with a reason.
import { publishing } from '@murmur/contracts';
import { badRequest } from '@murmur/core';
import type { WebsubContext } from './context.js';

export type TopicKind =
  'site-feed' | 'timeline' | 'mentions' | 'webmentions' | 'photos' | 'blogroll' | 'external';

export interface Topic {
  url: string;
  kind: TopicKind;
  /** The user a per-user feed is of. */
  username?: string;
  /** Where the gateway serves an own feed: its path, and the Host to send for a site on its own host. */
  own?: { path: string; host?: string };
}

export const UNKNOWN_TOPIC =
  "hub.topic is not a feed this hub serves: it serves Murmur's public feeds (a site's feed.xml or feed.json, " +
  '/feeds/{username}.json, /feeds/{username}/mentions.json, /feeds/{username}/webmentions.json, ' +
  '/feeds/photos.json, /blogroll.org.json) and the topics of publishers the operator allows';

const USERNAME = '([A-Za-z0-9_-]{1,64})';
const OWN_PATHS: Array<{ re: RegExp; kind: TopicKind }> = [
  { re: /^\/feeds\/photos\.json$/, kind: 'photos' },
  { re: /^\/blogroll\.org\.json$/, kind: 'blogroll' },
  { re: new RegExp(`^/feeds/${USERNAME}\\.json$`), kind: 'timeline' },
  { re: new RegExp(`^/feeds/${USERNAME}/mentions\\.json$`), kind: 'mentions' },
  { re: new RegExp(`^/feeds/${USERNAME}/webmentions\\.json$`), kind: 'webmentions' },
  { re: new RegExp(`^/sites/${USERNAME}/feed\\.(?:xml|json)$`), kind: 'site-feed' },
];

/** A URL the hub may be asked about: http(s), at most 2,048 characters, no fragment. */
export function parseUrlParam(name: string, raw: string | undefined): URL {
  if (raw === undefined || raw.trim() === '') throw badRequest(`${name} is required`, name);
  const text = raw.trim();
  if (text.length > 2048) throw badRequest(`${name} must be at most 2048 characters`, name);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`${name} is not a valid URL`, name);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest(`${name} must be an http or https URL`, name);
  if (url.hash !== '' || text.includes('#')) throw badRequest(`${name} must not have a fragment`, name);
  return url;
}

/**
 * Whether the URL's host is one the operator allows publishers on: an entry `host:port` allows that
 * port alone, `host` every port of it, `*.suffix` every host below it.
 */
export function publisherHostAllowed(ctx: WebsubContext, url: URL): boolean {
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return ctx.config.WEBSUB_PUBLISHER_HOSTS.some((entry) => {
    const e = entry.toLowerCase();
    if (e.startsWith('*.')) return hostname.endsWith(e.slice(1));
    return e.includes(':') ? host === e : hostname === e;
  });
}

/** The topic `url` names, or a 400 saying why the hub does not serve it. */
export async function recognizeTopic(ctx: WebsubContext, url: URL): Promise<Topic> {
  const href = url.href;
  const base = new URL(ctx.config.PUBLIC_URL);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.origin === base.origin && url.pathname.startsWith(`${basePath}/`)) {
    const path = url.pathname.slice(basePath.length);
    for (const { re, kind } of OWN_PATHS) {
      const m = re.exec(path);
      if (!m) continue;
      if (url.search !== '') throw badRequest('hub.topic must be the feed URL without a query', 'hub.topic');
      return { url: href, kind, ...(m[1] ? { username: m[1] } : {}), own: { path } };
    }
  } else if ((url.pathname === '/feed.xml' || url.pathname === '/feed.json') && url.search === '') {
    // A site on its own host: publishing knows whether the host is one of ours.
    const { site } = await ctx.bus.request(publishing.siteAt, { url: href });
    if (site && new URL(site.url).origin === url.origin)
      return {
        url: href,
        kind: 'site-feed',
        username: site.username,
        own: { path: url.pathname, host: url.host },
      };
  }
  if (publisherHostAllowed(ctx, url)) return { url: href, kind: 'external' };
  throw badRequest(UNKNOWN_TOPIC, 'hub.topic');
}

/** The topics of a site's own feeds, from its URL (ending in `/`). */
export function siteFeedTopics(siteUrl: string): string[] {
  return [`${siteUrl}feed.xml`, `${siteUrl}feed.json`];
}

/** The URL of a feed of PUBLIC_URL (`/feeds/ada.json` → `{PUBLIC_URL}/feeds/ada.json`). */
export function ownTopicUrl(ctx: WebsubContext, path: string): string {
  return `${ctx.config.PUBLIC_URL}${path}`;
}
