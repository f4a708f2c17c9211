// The public reads of an archive (docs/api/archive.md): recent.json, search.json, years.json and
// {year}/{month}.json. Parameters are checked here with the messages of docs/api/archive.md; a `site_id`
// that is not an integer is no route (404).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import type { ArchiveContext } from '../domain/context.js';
import {
  monthView,
  parseMonth,
  parseOffset,
  parseQuery,
  recentView,
  searchView,
  yearsView,
} from '../domain/reads.js';
import { answer, corsHeaders } from './http-cache.js';
import { feedSchema, yearsSchema } from '../shapes.js';

const siteParam = z.object({ site_id: zParam.id() });
const monthParams = z.object({
  site_id: zParam.id(),
  // Not digits at all → no such route; digits of the wrong size → 400 (parseMonth).
  year: z.string().regex(/^\d+$/),
  month: z.string().regex(/^\d+$/),
});

export function registerReadRoutes(scope: FastifyInstance, ctx: ArchiveContext): void {
  scope.addHook('onRequest', async (_request, reply) => corsHeaders(reply));

  defineRoute(scope, {
    method: 'GET',
    url: '/imported/archive/:site_id/recent.json',
    crossOrigin: true,
    digitParams: ['site_id'],
    params: siteParam,
    response: { 200: feedSchema },
    handler: async ({ params, input, request, reply }) => {
      const offset = parseOffset(input.offset);
      return answer(request, reply, await recentView(ctx, params.site_id, offset));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/imported/archive/:site_id/search.json',
    crossOrigin: true,
    digitParams: ['site_id'],
    params: siteParam,
    response: { 200: feedSchema },
    handler: async ({ params, input, request, reply }) => {
      const query = parseQuery(input.q);
      return answer(request, reply, await searchView(ctx, params.site_id, query));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/imported/archive/:site_id/years.json',
    crossOrigin: true,
    digitParams: ['site_id'],
    params: siteParam,
    response: { 200: yearsSchema },
    handler: async ({ params, request, reply }) =>
      answer(request, reply, await yearsView(ctx, params.site_id)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/imported/archive/:site_id/:year/:month.json',
    crossOrigin: true,
    digitParams: ['site_id', 'year', 'month'],
    params: monthParams,
    response: { 200: feedSchema },
    handler: async ({ params, input, request, reply }) => {
      const when = parseMonth(params.year, params.month);
      const offset = parseOffset(input.offset);
      return answer(request, reply, await monthView(ctx, params.site_id, when, offset));
    },
  });
}
