// What identity answers on the bus: token checks for every service's auth hook, XML-RPC logins,
// and user look-ups. Unknown and revoked look identical to callers.
import { identity } from '@murmur/contracts';
import type { Subscription } from '@murmur/platform';
import { publicUser } from './account.js';
import type { IdentityContext } from './context.js';
import { activeToken } from './indieauth-tokens.js';
import { activeAppToken, recordTokenUse } from './tokens.js';

export async function answerBusRequests(ctx: IdentityContext): Promise<Subscription[]> {
  return Promise.all([
    ctx.bus.handle(identity.tokenVerify, async ({ token }) => {
      // App tokens and IndieAuth access tokens alike: every service's Bearer check lands here.
      const active = await activeToken(ctx, token);
      if (!active) return { active: false as const };
      return {
        active: true as const,
        userId: active.user._id,
        username: active.user.username,
        kind: active.kind,
        scopes: active.scopes,
        clientId: active.clientId,
        tokenHash: active.hash,
      };
    }),

    ctx.bus.handle(identity.credentialsVerify, async ({ login, token }) => {
      const trimmed = login.trim();
      // Usernames cannot contain `@`, so the login's shape says which key to look up.
      const user = trimmed.includes('@')
        ? await ctx.store.userByEmail(trimmed)
        : await ctx.store.userByUsername(trimmed);
      const active = user ? await activeAppToken(ctx, token) : null;
      if (!user || !active || active.user._id !== user._id) return { ok: false as const };
      await recordTokenUse(ctx, active.token);
      return { ok: true as const, userId: user._id, username: user.username };
    }),

    ctx.bus.handle(identity.usersGet, async (query) => {
      const user =
        'id' in query ? await ctx.store.userById(query.id) : await ctx.store.userByUsername(query.username);
      return { user: user ? publicUser(user, ctx.config.PUBLIC_URL) : null };
    }),
  ]);
}
