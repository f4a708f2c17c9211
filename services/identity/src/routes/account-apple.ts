// POST /account/apple — Sign in with Apple (docs/api/identity.md).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { busHeaders, defineRoute } from '@murmur/http';
import { signInWithApple } from '../domain/apple.js';
import type { IdentityContext } from '../domain/context.js';
import { optionalText, requiredText } from './params.js';

export function registerAppleRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/account/apple',
    input: z.object({
      identity_token: requiredText(8192),
      user_id: requiredText(255),
      // Tolerated and ignored: only the address inside the signed identity token is trusted.
      email: optionalText(1024),
      full_name: optionalText(200),
      username: optionalText(64),
      app_name: optionalText(100),
    }),
    response: { 200: z.object({ username: z.string(), token: z.string() }) },
    handler: async ({ input, request }) => {
      await ctx.limits.enforce('apple-ip', request.ip);
      return signInWithApple(
        ctx,
        {
          identityToken: input.identity_token,
          userId: input.user_id,
          fullName: input.full_name,
          username: input.username,
          appName: input.app_name,
        },
        busHeaders(request),
      );
    },
  });
}
