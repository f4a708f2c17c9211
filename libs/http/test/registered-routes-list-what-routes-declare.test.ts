// registeredRoutes lists every route an app registered with what the route declares about itself: the
// gateway's route table is generated from these lists (gateway/src/route-table-generator.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registeredRoutes } from '../src/app.js';
import { defineRoute } from '../src/route.js';
import { zParam } from '../src/params.js';
import { buildApp } from './helpers.js';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildApp(
    (scope) => {
      defineRoute(scope, {
        method: 'GET',
        url: '/feeds/v2/entries/:id.json',
        params: z.object({ id: zParam.id() }),
        digitParams: ['id'],
        handler: async () => ({}),
      });
      defineRoute(scope, {
        method: ['POST', 'PUT'],
        url: '/upload',
        bodyLimit: 5 * 1024 * 1024,
        timeoutMs: 60_000,
        errorStyle: 'text',
        handler: async () => undefined,
      });
      defineRoute(scope, {
        method: 'GET',
        url: '/public.json',
        crossOrigin: { allowHeaders: 'Authorization' },
        handler: async () => ({}),
      });
      // A route of Fastify's own declares through its config.
      scope.route({
        method: 'DELETE',
        url: '/raw',
        config: { errorStyle: 'oauth' },
        handler: async () => undefined,
      });
    },
    { errorStyle: (url) => (url.startsWith('/feeds/v2/') ? 'feedbin' : 'simple') },
  ));
});

afterAll(async () => {
  await app.close();
});

describe('registeredRoutes', () => {
  it('lists each method of each route, with what the route declares', () => {
    expect(registeredRoutes(app)).toEqual([
      { method: 'GET', url: '/feeds/v2/entries/:id.json', errorStyle: 'feedbin', digitParams: ['id'] },
      { method: 'HEAD', url: '/feeds/v2/entries/:id.json', errorStyle: 'feedbin', digitParams: ['id'] },
      { method: 'POST', url: '/upload', errorStyle: 'text', bodyLimit: 5 * 1024 * 1024, timeoutMs: 60_000 },
      { method: 'PUT', url: '/upload', errorStyle: 'text', bodyLimit: 5 * 1024 * 1024, timeoutMs: 60_000 },
      {
        method: 'GET',
        url: '/public.json',
        errorStyle: 'simple',
        crossOrigin: { allowHeaders: 'Authorization' },
      },
      {
        method: 'HEAD',
        url: '/public.json',
        errorStyle: 'simple',
        crossOrigin: { allowHeaders: 'Authorization' },
      },
      { method: 'DELETE', url: '/raw', errorStyle: 'oauth' },
    ]);
  });

  it('gives a route without a limit of its own the app’s, when the app sets one', async () => {
    const { app: limited } = await buildApp(
      (scope) => defineRoute(scope, { method: 'POST', url: '/note', handler: async () => undefined }),
      { bodyLimit: 64 * 1024 },
    );
    try {
      expect(registeredRoutes(limited).find((r) => r.url === '/note')?.bodyLimit).toBe(64 * 1024);
    } finally {
      await limited.close();
    }
  });
});

describe('digitParams', () => {
  it('must name parameters of the route’s path', async () => {
    await expect(
      buildApp((scope) =>
        defineRoute(scope, {
          method: 'GET',
          url: '/feeds/:entry_id/highlights',
          digitParams: ['id'],
          handler: async () => ({}),
        }),
      ),
    ).rejects.toThrow(
      '/feeds/:entry_id/highlights: digitParams names "id", which is no parameter of its path',
    );
  });
});
