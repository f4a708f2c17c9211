// What identity answers other services on the bus: token checks for every service's auth hook,
// XML-RPC logins, and user look-ups. Unknown and revoked look identical to callers.
import type { identity, RequestDef } from '@murmur/contracts';
import { publicUser } from './account-json.js';
import type { IdentityContext } from './context.js';
import { activeToken } from './indieauth-tokens.js';
import { activeAppToken, recordTokenUse } from './tokens.js';

type Answer<D> = D extends RequestDef<unknown, infer Res> ? Res : never;
type Query<D> = D extends RequestDef<infer Req, unknown> ? Req : never;

/** App tokens and IndieAuth access tokens alike: every service's Bearer check lands here. */
export async function verifyBearerToken(
  ctx: IdentityContext,
  token: string,
): Promise<Answer<typeof identity.tokenVerify>> {
  const active = await activeToken(ctx, token);
  if (!active) return { active: false };
  return {
    active: true,
    userId: active.user._id,
    username: active.user.username,
    kind: active.kind,
    scopes: active.scopes,
    clientId: active.clientId,
    tokenHash: active.hash,
  };
}

/** A username or email plus an app token (XML-RPC clients send them as a login and password). */
export async function verifyCredentials(
  ctx: IdentityContext,
  login: string,
  token: string,
): Promise<Answer<typeof identity.credentialsVerify>> {
  const trimmed = login.trim();
  // Usernames cannot contain `@`, so the login's shape says which key to look up.
  const user = trimmed.includes('@')
    ? await ctx.store.userByEmail(trimmed)
    : await ctx.store.userByUsername(trimmed);
  const active = user ? await activeAppToken(ctx, token) : null;
  if (!user || !active || active.user._id !== user._id) return { ok: false };
  await recordTokenUse(ctx, active.token);
  return { ok: true, userId: user._id, username: user.username };
}

export async function lookUpUser(
  ctx: IdentityContext,
  query: Query<typeof identity.usersGet>,
): Promise<Answer<typeof identity.usersGet>> {
  const user =
    'id' in query ? await ctx.store.userById(query.id) : await ctx.store.userByUsername(query.username);
  return { user: user ? publicUser(user, ctx.config.PUBLIC_URL) : null };
}
