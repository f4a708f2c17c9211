// GET /account/me (beyond the interface): the account of the Bearer token, checked through the
// platform's auth hook like any other service would — so it also proves revocation reaches that hook.
import type { FastifyInstance } from 'fastify';
import { defineRoute, hasScope, InsufficientScopeError } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import { currentAccount } from '../domain/users.js';
import { accountWithoutTokenSchema } from '../shapes.js';

export function registerMeRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/account/me',
    auth: 'required',
    response: { 200: accountWithoutTokenSchema },
    handler: async ({ auth }) => {
      // The account is profile data: an IndieAuth token needs `profile` or `read` (which `create` implies).
      if (!hasScope(auth, 'profile') && !hasScope(auth, 'read')) throw new InsufficientScopeError('profile');
      return currentAccount(ctx, auth.userId);
    },
  });
}
