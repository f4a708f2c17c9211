// What identity announces, recorded in its outbox (docs/adr/0009-outbox-and-self-healing-bus.md) so a bus
// outage never loses an announcement: a user created while NATS was down still gets a site once it is back.
// Event ids are derived from the change, so a retried operation records the same event, not a second one.
import { identity } from '@murmur/contracts';
import { eventIdFor, type BusHeaders } from '@murmur/platform';
import type { AppTokenDoc, UserDoc } from '../store/index.js';
import { publicUser } from './account-json.js';
import type { IdentityContext } from './context.js';

const userCreatedId = (userId: number) => eventIdFor('identity', 'user', userId, 1, 'created');

/**
 * How the relay settles a `user.created` staged before the insert when the process died in between: the
 * event goes out when the account exists.
 */
export function registerEventVerifiers(ctx: IdentityContext): void {
  ctx.outbox.verify(identity.userCreated, async (envelope) =>
    Boolean(await ctx.store.userById(envelope.data.user.id)),
  );
}

/**
 * Creates the account with its announcement: the event is staged before the insert and committed after
 * it, so it is published exactly when the account exists, whatever fails in between.
 */
export async function insertAnnouncedUser(
  ctx: IdentityContext,
  user: UserDoc,
  headers: BusHeaders,
): Promise<void> {
  const staged = await ctx.outbox.stage(
    identity.userCreated,
    { user: publicUser(user, ctx.config.PUBLIC_URL) },
    { id: userCreatedId(user._id), headers },
  );
  try {
    await ctx.store.insertUser(user);
  } catch (err) {
    await staged.discard();
    throw err;
  }
  await staged.commit();
}

/**
 * Records `user.created` again for an account that exists (a client retrying a creation): a no-op when
 * the event was recorded, the repair when it was not.
 */
export async function reannounceUserCreated(
  ctx: IdentityContext,
  user: UserDoc,
  headers: BusHeaders,
): Promise<void> {
  await ctx.outbox.publish(
    identity.userCreated,
    { user: publicUser(user, ctx.config.PUBLIC_URL) },
    { id: userCreatedId(user._id), headers },
  );
}

/** A profile change; its id carries the change time, so two changes are two events. */
export async function announceUserUpdated(
  ctx: IdentityContext,
  user: UserDoc,
  headers: BusHeaders,
): Promise<void> {
  await ctx.outbox.publish(
    identity.userUpdated,
    { user: publicUser(user, ctx.config.PUBLIC_URL) },
    { id: eventIdFor('identity', 'user', user._id, user.updatedAt.getTime(), 'updated'), headers },
  );
}

/**
 * A revocation. Every replica of every service drops the token from its cache when this arrives; recording
 * it again for an already revoked token (a retried revocation) heals an announcement that was lost.
 */
export async function announceTokenRevoked(
  ctx: IdentityContext,
  token: Pick<AppTokenDoc, 'hash' | 'userId'>,
  headers: BusHeaders,
): Promise<void> {
  await ctx.outbox.publish(
    identity.tokenRevoked,
    { tokenHash: token.hash, userId: token.userId },
    { id: eventIdFor('identity', 'token', token.hash, 1, 'revoked'), headers },
  );
}
