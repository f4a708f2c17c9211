// GET /account/me (beyond the interface): the account of the Bearer token, checked through the
// platform's auth hook like any other service would — so it also proves revocation reaches that hook.
import type { FastifyInstance } from 'fastify';
import { defineRoute, hasScope, InsufficientScopeError, unauthorized } from '@murmur/platform';
import { accountObject } from '../domain/account.js';
import type { IdentityContext } from '../domain/context.js';
import { accountWithoutTokenSchema } from './schemas.js';

export function registerMeRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/account/me',
    auth: 'required',
    response: { 200: accountWithoutTokenSchema },
    handler: async ({ auth }) => {
      // The account is profile data: an IndieAuth token needs `profile` or `read` (which `create` implies).
      if (!hasScope(auth, 'profile') && !hasScope(auth, 'read')) throw new InsufficientScopeError('profile');
      const user = await ctx.store.userById(auth.userId);
      if (!user) throw unauthorized();
      return accountObject(user, ctx.config.PUBLIC_URL, await ctx.usingAi());
    },
  });
}
