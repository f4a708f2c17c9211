// Operator API for registered apps: the only places a sign-in link may send someone.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import { deleteApp, listApps, registerApp } from '../domain/apps.js';
import type { IdentityContext } from '../domain/context.js';
import { requiredText } from './params.js';
import { appSchema, emptySchema } from '../shapes.js';

// Schemes a browser or mail client would run or read locally instead of opening an app or a site.
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'mailto:']);

/**
 * An absolute URL kept exactly as given (sign-in compares it as an exact string). Apps may use their
 * own scheme (`app://signin`); http(s) URLs need a host. No fragment: the token is appended to the query.
 */
const redirectUrl = requiredText(2048).superRefine((value, ctx) => {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  const problem =
    url === null || /\s/.test(value)
      ? 'must be an absolute URL'
      : REFUSED_SCHEMES.has(url.protocol)
        ? `must not use the ${url.protocol} scheme`
        : (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === ''
          ? 'must name a host'
          : url.hash !== '' || value.includes('#')
            ? 'must not have a fragment'
            : null;
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const appName = requiredText(100).refine((v) => /^[\p{L}\p{N} ._-]+$/u.test(v), {
  message: 'must be letters, digits, spaces, ".", "_" or "-"',
});

export function registerAdminAppRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/admin/apps',
    input: z.object({ app_name: appName, redirect_url: redirectUrl }),
    response: { 201: appSchema },
    handler: async ({ input, reply }) => {
      const app = await registerApp(ctx, input.app_name, input.redirect_url);
      reply.code(201);
      return app;
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/apps',
    response: { 200: z.object({ apps: z.array(appSchema) }) },
    handler: async () => ({ apps: await listApps(ctx) }),
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/admin/apps/:id',
    params: z.object({ id: zParam.id() }),
    response: { 200: emptySchema },
    handler: async ({ params }) => {
      await deleteApp(ctx, params.id);
      return {};
    },
  });
}
