// What identity announces, recorded in its outbox (docs/adr/0009-outbox-and-self-healing-bus.md) so a bus
// outage never loses an announcement: a user created while NATS was down still gets a site once it is back.
// Event ids are derived from the change, so a retried operation records the same event, not a second one.
import { identity } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { eventIdFor } from '@murmur/jobs';
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
 * A revocation. Every replica of every service drops the token from its cache when this arrives, and must
 * do so before the revocation is answered (the next call with the token is a 401): it is published at once.
 * Only when the bus refuses it does the outbox take it, to relay it when the bus is back. (A crash between
 * the write and the publish can lose it; caches forget a token within 10 s anyway, and no service keeps
 * durable state from this event.)
 */
export async function announceTokenRevoked(
  ctx: IdentityContext,
  token: Pick<AppTokenDoc, 'hash' | 'userId'>,
  headers: BusHeaders,
): Promise<void> {
  const data = { tokenHash: token.hash, userId: token.userId };
  const id = eventIdFor('identity', 'token', token.hash, 1, 'revoked');
  try {
    await ctx.bus.publish(identity.tokenRevoked, data, { id, headers });
  } catch (err) {
    ctx.logger.warn({ err }, 'revocation not announced at once; the outbox relays it when the bus is back');
    await ctx.outbox.publish(identity.tokenRevoked, data, { id, headers });
  }
}
