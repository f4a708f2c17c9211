// Where the microsub service meets other services. It consumes identity's user events and
// publishing's site events into the user directory that search and preview read; timelines and
// follows are asked of the feeds service per request (feeds.timeline.get, feeds.follow.create,
// feeds.follow.delete, feeds.following.list) from domain/source.ts and domain/follows.ts.
import { identity, publishing } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { MicrosubContext } from './domain/context.js';
import { rememberSite, rememberUser } from './domain/directory.js';

/** Durable groups: `microsub-<entity>-<verb>`, never renamed once deployed. */
export const GROUPS = {
  userCreated: 'microsub-user-created',
  userUpdated: 'microsub-user-updated',
  siteCreated: 'microsub-site-created',
  siteUpdated: 'microsub-site-updated',
} as const;

export async function wireBus(ctx: MicrosubContext): Promise<Subscription[]> {
  const { bus } = ctx;
  return Promise.all([
    bus.subscribe(identity.userCreated, { durable: GROUPS.userCreated }, (e) =>
      rememberUser(ctx, e, 'created'),
    ),
    bus.subscribe(identity.userUpdated, { durable: GROUPS.userUpdated }, (e) =>
      rememberUser(ctx, e, 'updated'),
    ),
    bus.subscribe(publishing.siteCreated, { durable: GROUPS.siteCreated }, (e) =>
      rememberSite(ctx, e, 'created'),
    ),
    bus.subscribe(publishing.siteUpdated, { durable: GROUPS.siteUpdated }, (e) =>
      rememberSite(ctx, e, 'updated'),
    ),
  ]);
}
