// POST /account/signin — mail a sign-in link (docs/api/identity.md). The answer is the same for every valid
// request, whether or not the address has an account.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@murmur/core';
import { defineRoute, lastValue, zParam } from '@murmur/http';
import { signinTarget } from '../domain/apps.js';
import type { IdentityContext } from '../domain/context.js';
import { parseEmail } from '../domain/emails.js';
import { requestSigninEmail } from '../domain/signin.js';
import { optionalText } from './params.js';
import { emptySchema } from '../shapes.js';

const EMAIL_REQUIRED = 'A valid email address is required.';

export function registerSigninRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/account/signin',
    input: z.object({
      // Checked in the handler: every problem with it has the one documented message.
      email: z.unknown().optional(),
      app_name: optionalText(100),
      redirect_url: optionalText(2048),
      is_mobile: zParam.int().optional(),
    }),
    response: { 200: emptySchema },
    handler: async ({ input, request }) => {
      const raw = lastValue(input.email);
      const email = typeof raw === 'string' ? parseEmail(raw) : null;
      if (email === null) throw badRequest(EMAIL_REQUIRED, 'email');
      const target = await signinTarget(ctx, input.app_name, input.redirect_url);

      await requestSigninEmail(ctx, { email, ip: request.ip, target, isMobile: input.is_mobile === 1 });
      return {};
    },
  });
}
