// The follow graph over HTTP: follow, unfollow, and whom a user follows (flags relative to the caller).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { busHeaders, defineRoute, zParam } from '@murmur/http';
import type { FeedsContext } from '../domain/context.js';
import { followByUsername, followingOf, unfollowByUsername } from '../domain/follows.js';
import { usernameParam } from './params.js';
import { emptySchema, followingSchema } from '../shapes.js';

const usernameInput = z.object({ username: zParam.string({ min: 1, max: 64, trim: true }) });

export function registerFollowRoutes(scope: FastifyInstance, ctx: FeedsContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/users/follow',
    auth: 'required',
    scopes: ['follow'],
    input: usernameInput,
    response: { 200: emptySchema },
    handler: async ({ input, auth, request }) => {
      await followByUsername(ctx, auth.userId, input.username, busHeaders(request));
      return {};
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/users/unfollow',
    auth: 'required',
    scopes: ['follow'],
    input: usernameInput,
    response: { 200: emptySchema },
    handler: async ({ input, auth }) => {
      await unfollowByUsername(ctx, auth.userId, input.username);
      return {};
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/users/following/:username',
    auth: 'required',
    scopes: ['read'],
    params: usernameParam,
    response: { 200: followingSchema },
    handler: async ({ params, auth }) =>
      (await followingOf(ctx, params.username, auth.userId)).map((e) => ({
        name: e.name || e.username,
        url: e.url,
        avatar: e.avatar,
        username: e.username,
        is_following: e.isFollowing,
        is_you: e.isYou,
      })),
  });
}
