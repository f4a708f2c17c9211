// The one place where the reader meets other services on the bus. It answers
// reader.recap.capabilities (identity asks it for the account's `is_using_ai`) and the
// reader.webfollow.* requests of the microsub service (follows of feeds on the open web). Token revocations
// (evt.identity.token.revoked) are listened to by the platform's Authenticator, and the requests the
// reader makes (identity.users.get, identity.mail.send) are in the jobs that make them.
import { reader } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { ReaderContext } from './domain/context.js';
import { followWebFeed, unfollowWebFeed, webEntriesOf, webFollowsOf } from './domain/microsub-follows.js';
import { recapCapabilities } from './domain/recap.js';

/**
 * Durable consumer groups of the reader: none yet (it consumes no events). A group name is
 * `reader-<entity>-<verb>` and never changes once deployed (a renamed group starts over).
 */
export const GROUPS = {} as const;

export async function wireBus(ctx: ReaderContext): Promise<Subscription[]> {
  return Promise.all([
    ctx.bus.handle(reader.recapCapabilities, async () => recapCapabilities(ctx)),
    // Microsub follows of the open web (domain/microsub-follows.ts).
    ctx.bus.handle(reader.webFollowCreate, (q) => followWebFeed(ctx, q.userId, q.url)),
    ctx.bus.handle(reader.webFollowDelete, async (q) => ({
      known: await unfollowWebFeed(ctx, q.userId, q.url),
    })),
    ctx.bus.handle(reader.webFollowList, async (q) => ({ items: await webFollowsOf(ctx, q.userId) })),
    ctx.bus.handle(reader.webEntriesList, async (q) => ({
      items: await webEntriesOf(ctx, q.userId, q.limit, q.before),
    })),
  ]);
}
