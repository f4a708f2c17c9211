// Which URLs are ours to receive webmentions for, and whose they are: a known post permalink, or a URL
// on one of the users' sites — a site on a host of its own, or under {PUBLIC_URL}/sites/{username}/.
// Kept from publishing's events (copies with a revision, so an older event never wins).
import { publishing, type EventEnvelope } from '@murmur/contracts';
import type { WebmentionContext } from './context.js';
import { schemelessKey } from './urls.js';

/** Orders events of one entity: the event time, ties broken by kind (created < updated < deleted). */
export function revisionOf(
  occurredAt: string,
  kind: 'created' | 'updated' | 'deleted' | 'published',
): string {
  const order = { created: 0, published: 1, updated: 2, deleted: 3 }[kind];
  return `${occurredAt}~${order}`;
}

export async function applySiteEvent(
  ctx: WebmentionContext,
  kind: 'created' | 'updated',
  event: EventEnvelope<{ site: publishing.Site }>,
): Promise<void> {
  await keepSite(ctx, event.data.site, revisionOf(event.occurredAt, kind));
}

async function keepSite(ctx: WebmentionContext, site: publishing.Site, rev: string): Promise<void> {
  const publicHost = new URL(ctx.config.PUBLIC_URL).host.toLowerCase();
  const host = site.host.toLowerCase();
  await ctx.store.applySite({
    _id: site.id,
    userId: site.userId,
    host,
    url: site.url,
    ownHost: host !== publicHost && host !== new URL(ctx.config.PUBLIC_URL).hostname.toLowerCase(),
    rev,
  });
}

/** The owner of `target` (fragment already removed), or undefined when it is not one of ours. */
export async function ownerOfTarget(
  ctx: WebmentionContext,
  target: string,
): Promise<number | null | undefined> {
  const key = schemelessKey(target);
  const posts = await ctx.store.postsAt(key);
  if (posts.length > 0) return posts[0]!.userId;
  const url = new URL(target);
  const path = url.href.slice(url.protocol.length);
  for (const host of new Set([url.host.toLowerCase(), url.hostname.toLowerCase()])) {
    const sites = await ctx.store.sitesOnHost(host);
    // A site on its own host owns every URL there; sites under the public URL own their path.
    const owner =
      sites.find((s) => s.ownHost) ??
      sites
        .filter((s) => path.startsWith(schemelessKey(s.url)))
        .sort((a, b) => b.url.length - a.url.length)[0];
    if (owner) return owner.userId;
  }
  // A site this service has not heard of (created before it was deployed, or its event not yet
  // delivered): publishing knows. Kept with its creation as revision, so any later event wins.
  const { site } = await ctx.bus.request(publishing.siteAt, { url: target });
  if (!site) return undefined;
  await keepSite(ctx, site, revisionOf(site.createdAt, 'created'));
  return site.userId;
}
