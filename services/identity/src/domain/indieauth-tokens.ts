// IndieAuth access tokens: scoped, issued from an authorization code, valid until revoked, stored as
// SHA-256 only. Revocation is announced on the bus like app tokens', so every service's cache drops
// the token at once. `activeToken` answers for both kinds: every check of a Bearer token goes through it.
import { SCOPES } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, randomToken, sha256Hex, unauthorized } from '@murmur/core';
import type { AuthCodeDoc } from '../store/index.js';
import type { ActiveToken } from './active-token.js';
import type { IdentityContext } from './context.js';
import { announceTokenRevoked } from './events.js';
import {
  introspectionJson,
  tokenInfoJson,
  type IntrospectionJson,
  type TokenInfoJson,
} from './indieauth-json.js';
import { activeAppToken, recordTokenUse, revokeAppToken } from './tokens.js';

export type { ActiveToken };

export async function issueIndieAuthToken(ctx: IdentityContext, code: AuthCodeDoc): Promise<string> {
  const token = randomToken();
  const hash = sha256Hex(token);
  await ctx.store.insertIndieAuthToken({
    _id: hash,
    userId: code.userId,
    clientId: code.clientId,
    scopes: code.scopes,
    codeHash: code._id,
    createdAt: ctx.clock.now(),
    revokedAt: null,
  });
  const after = await ctx.store.recordCodeToken(code._id, hash);
  // A replay that raced this redemption found no token to revoke yet: this side revokes it instead.
  if (after?.replayedAt) {
    await revokeIndieAuthToken(ctx, hash, {});
    throw badRequest('The authorization code was used more than once.', 'code', 'invalid_grant');
  }
  ctx.logger.info({ userId: code.userId, clientId: code.clientId }, 'indieauth token issued');
  return token;
}

/** The live token of either kind and its owner; null for unknown, revoked or orphaned tokens. */
export async function activeToken(ctx: IdentityContext, token: string): Promise<ActiveToken | null> {
  const app = await activeAppToken(ctx, token);
  if (app) {
    await recordTokenUse(ctx, app.token);
    return {
      user: app.user,
      kind: 'app',
      clientId: '',
      scopes: [...SCOPES],
      hash: app.token.hash,
      createdAt: app.token.createdAt,
    };
  }
  const doc = await ctx.store.indieAuthTokenByHash(sha256Hex(token));
  if (!doc || doc.revokedAt !== null) return null;
  const user = await ctx.store.userById(doc.userId);
  if (!user) return null;
  return {
    user,
    kind: 'indieauth',
    clientId: doc.clientId,
    scopes: doc.scopes,
    hash: doc._id,
    createdAt: doc.createdAt,
  };
}

export async function revokeIndieAuthToken(
  ctx: IdentityContext,
  hash: string,
  headers: BusHeaders,
): Promise<boolean> {
  const revoked = await ctx.store.revokeIndieAuthToken(hash, ctx.clock.now());
  if (!revoked) return false;
  await announceTokenRevoked(ctx, { hash, userId: revoked.userId }, headers);
  ctx.logger.info({ userId: revoked.userId, clientId: revoked.clientId }, 'indieauth token revoked');
  return true;
}

/**
 * Revocation endpoint semantics (RFC 7009): whoever holds a token may revoke it, and the answer never
 * says whether it existed. App tokens are revoked too: holding one is the same control.
 */
export async function revokeAnyToken(
  ctx: IdentityContext,
  token: string,
  headers: BusHeaders,
): Promise<void> {
  if (await revokeIndieAuthToken(ctx, sha256Hex(token), headers)) return;
  await revokeAppToken(ctx, { token }, headers);
}

/** After a code was presented twice, nothing issued from it may keep working. */
export async function revokeTokensOfCode(
  ctx: IdentityContext,
  codeHash: string,
  headers: BusHeaders,
): Promise<void> {
  for (const doc of await ctx.store.indieAuthTokensOfCode(codeHash)) {
    await revokeIndieAuthToken(ctx, doc._id, headers);
  }
}

/** `GET /indieauth/token`: what a resource server learns about a Bearer token. */
export async function describeToken(ctx: IdentityContext, token: string | undefined): Promise<TokenInfoJson> {
  if (token === undefined) throw unauthorized('A Bearer token is required.', 'invalid_token');
  const active = await activeToken(ctx, token);
  if (!active) throw unauthorized('The token is not valid.', 'invalid_token');
  return tokenInfoJson(active, ctx.config.PUBLIC_URL);
}

/** Introspection: only holders of a live token of this service may ask, so it is no oracle for strangers. */
export async function introspectToken(
  ctx: IdentityContext,
  caller: string | undefined,
  token: string,
): Promise<IntrospectionJson> {
  if (caller === undefined || !(await activeToken(ctx, caller))) {
    throw unauthorized('Introspection needs a valid Bearer token.', 'invalid_token');
  }
  return introspectionJson(await activeToken(ctx, token), ctx.config.PUBLIC_URL);
}
