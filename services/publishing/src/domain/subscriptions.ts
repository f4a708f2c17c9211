// What publishing hears from identity: a new account gets its default site; a renamed one's sites show
// the new name. Durable groups, so events published while publishing was down are handled when it returns.
import { identity } from '@murmur/contracts';
import type { Subscription } from '@murmur/platform';
import type { PublishingContext } from './context.js';
import { ensureDefaultSite, renameOwner } from './sites.js';

export const USER_CREATED_GROUP = 'publishing-user-created';
export const USER_UPDATED_GROUP = 'publishing-user-updated';

export async function subscribeToIdentity(ctx: PublishingContext): Promise<Subscription[]> {
  return Promise.all([
    ctx.bus.subscribe(identity.userCreated, { durable: USER_CREATED_GROUP }, async (event, { headers }) => {
      const { user } = event.data;
      await ensureDefaultSite(
        ctx,
        { userId: user.id, username: user.username, name: user.name || user.fullName },
        headers,
      );
    }),
    ctx.bus.subscribe(identity.userUpdated, { durable: USER_UPDATED_GROUP }, async (event) => {
      const { user } = event.data;
      await renameOwner(ctx, user.id, user.name || user.fullName);
    }),
  ]);
}
