// Operator API for sites (MURMUR_ADMIN_TOKEN, like identity's /admin): look a site up, give it its own
// host (or take it away). Custom hosts are how a site is served on its own domain.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { busHeaders, defineRoute, requireAdminToken, zParam } from '@murmur/http';
import type { PublishingContext } from '../domain/context.js';
import { publicSite } from '../domain/site-json.js';
import { setSiteHost, sitesOfUsername } from '../domain/sites.js';

const siteSchema = z.object({
  id: z.number(),
  userId: z.number(),
  username: z.string(),
  host: z.string(),
  url: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});

export function registerAdminSiteRoutes(scope: FastifyInstance, ctx: PublishingContext): void {
  requireAdminToken(scope, ctx.config.MURMUR_ADMIN_TOKEN);
  const idParams = z.object({ id: zParam.id() });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/sites',
    input: z.object({ username: zParam.string({ max: 64 }) }),
    response: { 200: z.object({ sites: z.array(siteSchema) }) },
    handler: async ({ input }) => {
      const sites = await sitesOfUsername(ctx, input.username);
      return { sites: sites.map((s) => publicSite(ctx, s)) };
    },
  });

  defineRoute(scope, {
    method: 'PATCH',
    url: '/admin/sites/:id',
    params: idParams,
    input: z.object({ host: zParam.string({ max: 253, trim: true }) }),
    response: { 200: siteSchema },
    handler: ({ params, input, request }) => setSiteHost(ctx, params.id, input.host, busHeaders(request)),
  });
}
