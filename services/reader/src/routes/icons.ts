// GET /feeds/v2/icons.json (one icon per site host of the user's subscriptions, known icons only) and
// GET /feeds/v2/authentication.json (a client's login check: 200 with an empty body).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ReaderContext } from '../domain/context.js';
import { readerRoute, type RouteScopes } from './route.js';
import { iconSchema } from './schemas.js';

export function registerIconRoutes(scope: FastifyInstance, scopes: RouteScopes, ctx: ReaderContext): void {
  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/icons.json',
    scope: 'read',
    response: { 200: z.array(iconSchema) },
    handler: async ({ auth }) => {
      const view = await ctx.views.get(auth.userId);
      const hosts = [...new Set(view.subscriptions.map((s) => s.feed.siteHost))];
      const icons = await ctx.store.icons.find({ _id: { $in: hosts } });
      const byHost = new Map(icons.map((i) => [i._id, i.url]));
      return hosts.flatMap((host) => {
        const url = byHost.get(host);
        return url ? [{ host, url }] : [];
      });
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/authentication.json',
    scope: 'read',
    handler: async () => undefined,
  });
}
