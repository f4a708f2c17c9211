// The public web of sites: /sites/{username}/… on the public URL's host, and the whole path space of a
// site's own host (matched on the request's host name, which only selects the site: every URL we write
// comes from configuration).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '@murmur/core';
import { defineRoute } from '@murmur/http';
import type { PublishingContext } from '../domain/context.js';
import { defaultSiteOfUsername, siteOfHost } from '../domain/sites.js';
import { serveSitePath } from '../web/site.js';

const username = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,29}$/);

export function registerSiteRoutes(scope: FastifyInstance, ctx: PublishingContext): void {
  const rateLimit = { max: ctx.config.PUBLIC_GETS_PER_MINUTE, timeWindow: 60_000 };

  defineRoute(scope, {
    method: 'GET',
    url: '/sites/:username',
    params: z.object({ username }),
    rateLimit,
    handler: async ({ params, reply }) => {
      const site = await defaultSiteOfUsername(ctx, params.username);
      if (!site) throw notFound();
      return reply.redirect(`${ctx.config.PUBLIC_URL}/sites/${encodeURIComponent(site.username)}/`, 301);
    },
  });

  // The site's JSON Feed, public like the feeds service's JSON Feeds: a route of its own only to declare
  // it readable cross-origin; answered as every other path of the site (web/site.ts).
  defineRoute(scope, {
    method: 'GET',
    url: '/sites/:username/feed.json',
    crossOrigin: true,
    params: z.object({ username }),
    rateLimit,
    handler: async ({ params, reply }) => {
      const site = await defaultSiteOfUsername(ctx, params.username);
      if (!site) throw notFound();
      return serveSitePath(ctx, site, 'feed.json', reply);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/sites/:username/*',
    params: z.object({ username, '*': z.string().max(300) }),
    rateLimit,
    handler: async ({ params, reply }) => {
      const site = await defaultSiteOfUsername(ctx, params.username);
      if (!site) throw notFound();
      return serveSitePath(ctx, site, params['*'], reply);
    },
  });

  // Anything else on a custom site host. Unknown hosts (and the public host) get the usual 404.
  defineRoute(scope, {
    method: 'GET',
    url: '/*',
    params: z.object({ '*': z.string().max(300) }),
    rateLimit,
    handler: async ({ params, request, reply }) => {
      const host = request.hostname.toLowerCase();
      const site = host ? await siteOfHost(ctx, host) : null;
      if (!site) throw notFound('Not found.');
      return serveSitePath(ctx, site, params['*'], reply);
    },
  });
}
