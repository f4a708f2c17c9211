// GET /feeds/v2/icons.json (one icon per site host of the user's subscriptions, known icons only) and
// GET /feeds/v2/authentication.json (a client's login check: 200 with an empty body).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { userIcons } from '../domain/icons.js';
import { iconSchema } from '../shapes.js';
import { readScope } from './access.js';

export function registerIconRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/icons.json',
    ...readScope,
    response: { 200: z.array(iconSchema) },
    handler: async ({ auth }) => userIcons(ctx, auth.userId),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/authentication.json',
    ...readScope,
    handler: async () => undefined,
  });
}
