// What publishing hears from identity: a new account gets its default site; a changed profile shows on
// the user's sites (the name, and the h-cards' photo, note and profile links). Durable groups, so events
// published while publishing was down are handled when it returns. The group names never change once
// deployed (a renamed durable consumer starts over).
// It also answers `publishing.site.get` (one site by id, for the archive's ownership check) and
// `publishing.site.at` (the site a URL belongs to, for webmention targets).
import { identity, publishing } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { PublishingContext } from './domain/context.js';
import { siteNotFound } from './domain/errors.js';
import { publicSite } from './domain/site-json.js';
import { profileRevision, rememberOwner } from './domain/owners.js';
import { ensureDefaultSite, renameOwner, siteAtUrl } from './domain/sites.js';

export const GROUPS = {
  userCreated: 'publishing-user-created',
  userUpdated: 'publishing-user-updated',
} as const;

export async function wireBus(ctx: PublishingContext): Promise<Subscription[]> {
  return Promise.all([
    ctx.bus.subscribe(identity.userCreated, { durable: GROUPS.userCreated }, async (event, { headers }) => {
      await rememberOwner(ctx, event.data.user, profileRevision(event.occurredAt, 'created'));
      await ensureDefaultSite(ctx, ownerOf(event.data.user), headers, { announceExisting: true });
    }),
    ctx.bus.subscribe(identity.userUpdated, { durable: GROUPS.userUpdated }, async (event) => {
      await rememberOwner(ctx, event.data.user, profileRevision(event.occurredAt, 'updated'));
      await renameOwner(ctx, event.data.user.id, displayName(event.data.user));
    }),
    ctx.bus.handle(publishing.siteGet, async (query) => ({
      site: publicSite(ctx, (await ctx.store.siteById(query.siteId)) ?? throwError(siteNotFound())),
    })),
    ctx.bus.handle(publishing.siteAt, async (query) => {
      const site = await siteAtUrl(ctx, query.url);
      return { site: site ? publicSite(ctx, site) : null };
    }),
  ]);
}

function displayName(user: { name?: string; fullName?: string }): string {
  return user.name || user.fullName || '';
}

function ownerOf(user: { id: number; username: string; name?: string; fullName?: string }) {
  return { userId: user.id, username: user.username, name: displayName(user) };
}

function throwError(err: Error): never {
  throw err;
}
