// Identity's copy of each user's default site (DESIGN.md §3: publishing owns sites, others keep copies
// fed by events). It gives the account object `default_site`/`has_site` and IndieAuth its `me`.
import { publishing } from '@murmur/contracts';
import type { Subscription } from '@murmur/platform';
import type { IdentityContext } from './context.js';

export async function followDefaultSites(ctx: IdentityContext): Promise<Subscription[]> {
  const remember = async ({ data: { site } }: { data: { site: publishing.Site } }) => {
    if (!site.isDefault) return;
    const url = site.url.endsWith('/') ? site.url : `${site.url}/`;
    await ctx.store.setDefaultSite(site.userId, { siteId: site.id, host: site.host, url });
  };
  return Promise.all([
    ctx.bus.subscribe(publishing.siteCreated, { durable: 'identity-default-sites' }, remember),
    ctx.bus.subscribe(publishing.siteUpdated, { durable: 'identity-default-sites' }, remember),
  ]);
}
