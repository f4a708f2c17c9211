// Operator API for sites (MURMUR_ADMIN_TOKEN, like identity's /admin): look a site up, give it its own
// host (or take it away). Custom hosts are how a site is served on its own domain.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publishing } from '@murmur/contracts';
import {
  badRequest,
  bearerToken,
  busHeaders,
  conflict,
  defineRoute,
  DuplicateKeyError,
  forbidden,
  notFound,
  unauthorized,
  zParam,
} from '@murmur/platform';
import type { PublishingContext } from '../domain/context.js';
import { publicSite } from '../domain/sites.js';
import type { SiteDoc } from '../store.js';

const siteSchema = z.object({
  id: z.number(),
  userId: z.number(),
  username: z.string(),
  host: z.string(),
  url: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const digest = (text: string) => createHash('sha256').update(text).digest();

function requireAdmin(scope: FastifyInstance, adminToken: string | undefined): void {
  scope.addHook('onRequest', async (request) => {
    if (!adminToken) throw forbidden('The operator API is disabled: set MURMUR_ADMIN_TOKEN.');
    const given = bearerToken(request.headers.authorization);
    if (given === undefined) throw unauthorized();
    if (!timingSafeEqual(digest(given), digest(adminToken))) throw unauthorized();
  });
}

export function registerAdminSiteRoutes(scope: FastifyInstance, ctx: PublishingContext): void {
  requireAdmin(scope, ctx.config.MURMUR_ADMIN_TOKEN);
  const idParams = z.object({ id: zParam.id() });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/sites',
    input: z.object({ username: zParam.string({ max: 64 }) }),
    response: { 200: z.object({ sites: z.array(siteSchema) }) },
    handler: async ({ input }) => {
      const sites = await ctx.store.sites.find(
        { username: input.username.toLowerCase() },
        { sort: { _id: 1 } },
      );
      return { sites: sites.map((s) => publicSite(ctx, s)) };
    },
  });

  defineRoute(scope, {
    method: 'PATCH',
    url: '/admin/sites/:id',
    params: idParams,
    input: z.object({ host: zParam.string({ max: 253, trim: true }) }),
    response: { 200: siteSchema },
    handler: async ({ params, input, request }) => {
      const host = input.host.toLowerCase();
      if (host !== '' && !HOST.test(host))
        throw badRequest('host: must be a host name such as blog.example.com', 'host');
      if (host !== '' && host === new URL(ctx.config.PUBLIC_URL).hostname)
        throw badRequest('host: that is the public URL’s own host', 'host');
      const set: Partial<SiteDoc> = { host: host === '' ? null : host, updatedAt: new Date() };
      let site: SiteDoc | null;
      try {
        site = await ctx.store.sites.findOneAndUpdate(
          { _id: params.id },
          host === '' ? { $set: set, $unset: { hostKey: '' } } : { $set: { ...set, hostKey: host } },
        );
      } catch (err) {
        if (err instanceof DuplicateKeyError) throw conflict('host: another site uses that host');
        throw err;
      }
      if (!site) throw notFound('No such site.');
      const view = publicSite(ctx, site);
      await ctx.bus.publish(publishing.siteUpdated, { site: view }, { headers: busHeaders(request) });
      return view;
    },
  });
}
