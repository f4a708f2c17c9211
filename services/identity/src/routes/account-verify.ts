// POST /account/verify — exchange a sign-in token (or present an app token) for the account object.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@murmur/core';
import { bearerToken, defineRoute } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import { exchangeToken } from '../domain/signin.js';
import { optionalText } from './params.js';
import { accountSchema } from '../shapes.js';

export function registerVerifyRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/account/verify',
    input: z.object({ token: optionalText(512) }),
    response: { 200: accountSchema },
    handler: async ({ input, request }) => {
      // Some clients send the token only as a Bearer header (docs/api/identity.md, "What real clients send").
      const token = input.token ?? bearerToken(request.headers.authorization);
      if (token === undefined) throw badRequest('token is required', 'token');
      await ctx.limits.enforce('verify-ip', request.ip);
      return exchangeToken(ctx, token);
    },
  });
}
