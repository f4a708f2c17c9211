// WebFinger and NodeInfo, where their specifications put them (docs/api/federation.md, "Discovery").
// Both are read from browsers too (profile lookups, instance directories): cross-origin reads.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import type { FederationContext } from '../domain/context.js';
import { nodeinfo, nodeinfoLinks, webfinger } from '../domain/discovery.js';
import { NODEINFO_SCHEMA } from '../domain/ap-json.js';
import { jrdSchema, nodeinfoLinksSchema, nodeinfoSchema } from '../shapes.js';

export function registerDiscoveryRoutes(scope: FastifyInstance, ctx: FederationContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/.well-known/webfinger',
    crossOrigin: true,
    input: z.object({ resource: zParam.string({ max: 2048, trim: true }).optional() }),
    response: { 200: jrdSchema },
    handler: async ({ input, reply }) => {
      const jrd = await webfinger(ctx, input.resource);
      reply.header('content-type', 'application/jrd+json; charset=utf-8');
      return jrd;
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/.well-known/nodeinfo',
    crossOrigin: true,
    response: { 200: nodeinfoLinksSchema },
    handler: async () => nodeinfoLinks(ctx),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/nodeinfo/2.1',
    crossOrigin: true,
    response: { 200: nodeinfoSchema },
    handler: async ({ reply }) => {
      const doc = await nodeinfo(ctx);
      reply.header('content-type', `application/json; profile="${NODEINFO_SCHEMA}#"; charset=utf-8`);
      return doc;
    },
  });
}
