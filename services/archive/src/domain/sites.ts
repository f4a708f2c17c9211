// Who owns a site: asked of publishing over the bus (`publishing.site.get`). A site of another user
// answers exactly like an unknown one; the operator may import into any site (docs/security.md "Authorization rules").
import { publishing } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { isAppError, notFound } from '@murmur/core';
import type { ArchiveContext } from './context.js';

export const NO_SUCH_SITE = 'No such site.';

/** Who asks: a user (their own sites only) or the operator (any site). */
export type Caller = { userId: number } | { operator: true };

/** The site, if it exists and the caller may act on it. */
export async function ownedSite(
  ctx: Pick<ArchiveContext, 'bus'>,
  siteId: number,
  caller: Caller,
  headers: BusHeaders,
): Promise<publishing.Site> {
  let site: publishing.Site;
  try {
    ({ site } = await ctx.bus.request(publishing.siteGet, { siteId }, { headers }));
  } catch (err) {
    if (isAppError(err) && err.status === 404) throw notFound(NO_SUCH_SITE);
    throw err;
  }
  if (!('operator' in caller) && site.userId !== caller.userId) throw notFound(NO_SUCH_SITE);
  return site;
}
