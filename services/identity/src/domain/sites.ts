// Identity's copy of each user's default site: publishing owns sites, other services keep copies fed
// by its events (docs/architecture.md). The copy gives the account object `default_site`/`has_site`
// and IndieAuth its `me`.
import type { publishing } from '@murmur/contracts';
import type { IdentityContext } from './context.js';

/** Events may arrive twice or out of order; writing the same copy again changes nothing. */
export async function rememberDefaultSite(ctx: IdentityContext, site: publishing.Site): Promise<void> {
  if (!site.isDefault) return;
  const url = site.url.endsWith('/') ? site.url : `${site.url}/`;
  await ctx.store.setDefaultSite(site.userId, { siteId: site.id, host: site.host, url });
}
