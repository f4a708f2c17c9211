// GET /account/me (beyond the interface): the account of the Bearer token, checked through the
// platform's auth hook like any other service would — so it also proves revocation reaches that hook.
// PATCH /account/me (beyond the interface): the person edits their own profile with an app token.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { forbidden } from '@murmur/core';
import { busHeaders, defineRoute, hasScope, InsufficientScopeError } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import { currentAccount, editOwnProfile, type OwnProfileFields } from '../domain/users.js';
import { avatarUrl, patchText, profileLinks } from './params.js';
import { ownAccountSchema } from '../shapes.js';

export function registerMeRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/account/me',
    auth: 'required',
    response: { 200: ownAccountSchema },
    handler: async ({ auth }) => {
      // The account is profile data: an IndieAuth token needs `profile` or `read` (which `create` implies).
      if (!hasScope(auth, 'profile') && !hasScope(auth, 'read')) throw new InsufficientScopeError('profile');
      return currentAccount(ctx, auth.userId);
    },
  });

  defineRoute(scope, {
    method: 'PATCH',
    url: '/account/me',
    auth: 'required',
    input: z.object({
      name: patchText(100),
      full_name: patchText(200),
      bio: patchText(2000),
      avatar: avatarUrl(),
      links: profileLinks(),
    }),
    response: { 200: ownAccountSchema },
    handler: async ({ auth, input, request }) => {
      // No IndieAuth scope grants changing the profile (`profile` is reading it): app tokens only.
      if (auth.kind !== 'app') {
        throw forbidden('Changing the profile needs an app token of the account, not an IndieAuth token.');
      }
      const fields: OwnProfileFields = {};
      if (input.name !== undefined) fields.name = input.name;
      if (input.full_name !== undefined) fields.fullName = input.full_name;
      if (input.bio !== undefined) fields.bio = input.bio;
      if (input.avatar !== undefined) fields.avatar = input.avatar;
      if (input.links !== undefined) fields.links = input.links;
      return editOwnProfile(ctx, auth.userId, fields, busHeaders(request));
    },
  });
}
