// Who owns a site: asked of publishing over the bus (`publishing.site.get`). A site of another user
// answers exactly like an unknown one (docs/security.md "Authorization rules").
import { publishing } from '@murmur/contracts';
import { isAppError, notFound, type BusHeaders } from '@murmur/platform';
import type { ArchiveContext } from './context.js';

export const NO_SUCH_SITE = 'No such site.';

export async function ownedSite(
  ctx: Pick<ArchiveContext, 'bus'>,
  siteId: number,
  userId: number,
  headers: BusHeaders,
): Promise<publishing.Site> {
  let site: publishing.Site;
  try {
    ({ site } = await ctx.bus.request(publishing.siteGet, { siteId }, { headers }));
  } catch (err) {
    if (isAppError(err) && err.status === 404) throw notFound(NO_SUCH_SITE);
    throw err;
  }
  if (site.userId !== userId) throw notFound(NO_SUCH_SITE);
  return site;
}
