// App tokens: long-lived, full user rights, shown once, stored as SHA-256 only. Revocation is
// announced so every service's verification cache drops the token at once.
import { type BusHeaders } from '@murmur/bus';
import { randomToken, sha256Hex } from '@murmur/core';
import type { AppTokenDoc, UserDoc } from '../store/index.js';
import type { IdentityContext } from './context.js';
import { announceTokenRevoked } from './events.js';

/** `lastUsedAt` is informative; writing it on every request would turn reads into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export interface IssuedToken {
  id: number;
  token: string;
  label: string;
}

export async function issueAppToken(
  ctx: IdentityContext,
  userId: number,
  label: string,
): Promise<IssuedToken> {
  const token = randomToken();
  const doc: AppTokenDoc = {
    _id: await ctx.store.nextAppTokenId(),
    hash: sha256Hex(token),
    userId,
    label,
    kind: 'app',
    createdAt: ctx.clock.now(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await ctx.store.insertAppToken(doc);
  return { id: doc._id, token, label };
}

/** The live (not revoked) app token and its owner, or null. */
export async function activeAppToken(
  ctx: IdentityContext,
  token: string,
): Promise<{ token: AppTokenDoc; user: UserDoc } | null> {
  const doc = await ctx.store.appTokenByHash(sha256Hex(token));
  if (!doc || doc.revokedAt !== null) return null;
  const user = await ctx.store.userById(doc.userId);
  return user ? { token: doc, user } : null;
}

export async function recordTokenUse(ctx: IdentityContext, doc: AppTokenDoc): Promise<void> {
  await ctx.store.touchAppToken(doc._id, ctx.clock.now(), TOUCH_INTERVAL_MS);
}

/** Revokes by id or by raw token. Revoking twice is harmless: the event goes out once. */
export async function revokeAppToken(
  ctx: IdentityContext,
  which: { id: number } | { token: string },
  headers: BusHeaders,
): Promise<'revoked' | 'already-revoked' | 'unknown'> {
  const filter = 'id' in which ? { _id: which.id } : { hash: sha256Hex(which.token) };
  const revoked = await ctx.store.revokeAppToken(filter, ctx.clock.now());
  if (!revoked) return (await ctx.store.appToken(filter)) ? 'already-revoked' : 'unknown';
  await announceTokenRevoked(ctx, revoked, headers);
  ctx.logger.info({ tokenId: revoked._id, userId: revoked.userId }, 'app token revoked');
  return 'revoked';
}
