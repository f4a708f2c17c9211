// Operator API for revoking app tokens, by id or by the token itself. Revocation is announced on the
// bus so every service's verification cache drops the token at once.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '@murmur/core';
import { busHeaders, defineRoute, zParam } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import { revokeAppToken } from '../domain/tokens.js';
import { requiredText } from './params.js';
import { emptySchema } from '../shapes.js';

const NO_SUCH_TOKEN = 'No such token.';

export function registerAdminTokenRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'DELETE',
    url: '/admin/tokens/:id',
    params: z.object({ id: zParam.id() }),
    response: { 200: emptySchema },
    handler: async ({ params, request }) => {
      const outcome = await revokeAppToken(ctx, { id: params.id }, busHeaders(request));
      if (outcome === 'unknown') throw notFound(NO_SUCH_TOKEN);
      return {};
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/admin/tokens/revoke',
    input: z.object({ token: requiredText(512) }),
    response: { 200: emptySchema },
    handler: async ({ input, request }) => {
      const outcome = await revokeAppToken(ctx, { token: input.token }, busHeaders(request));
      if (outcome === 'unknown') throw notFound(NO_SUCH_TOKEN);
      return {};
    },
  });
}
