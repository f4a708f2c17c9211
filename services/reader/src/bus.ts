// The one place where the reader meets other services on the bus. It answers
// reader.recap.capabilities (identity asks it for the account's `is_using_ai`). Token revocations
// (evt.identity.token.revoked) are listened to by the platform's Authenticator, and the requests the
// reader makes (identity.users.get, identity.mail.send) are in the jobs that make them.
import { reader } from '@murmur/contracts';
import type { Subscription } from '@murmur/platform';
import type { ReaderContext } from './domain/context.js';
import { recapCapabilities } from './domain/recap.js';

/**
 * Durable consumer groups of the reader: none yet (it consumes no events). A group name is
 * `reader-<entity>-<verb>` and never changes once deployed (a renamed group starts over).
 */
export const GROUPS = {} as const;

export async function wireBus(ctx: ReaderContext): Promise<Subscription[]> {
  return Promise.all([ctx.bus.handle(reader.recapCapabilities, async () => recapCapabilities(ctx))]);
}
