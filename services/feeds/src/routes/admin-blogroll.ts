// Operator API for the public directory: opt a user's sites into the blogroll (with categories) or
// take them out. Guarded by MURMUR_ADMIN_TOKEN like every /admin route.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import { addToBlogroll, removeFromBlogroll } from '../domain/blogroll.js';
import type { FeedsContext } from '../domain/context.js';
import { usernameParam } from './params.js';
import { blogrollEntrySchema, emptySchema } from '../shapes.js';

const categoriesParam = z
  .unknown()
  .optional()
  .transform((raw, ctx): string[] => {
    if (raw === undefined) return [];
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
    if (!list || !list.every((c) => typeof c === 'string' && c.length <= 64 && !c.includes('\u0000'))) {
      ctx.addIssue({ code: 'custom', message: 'must be a list of words of at most 64 characters' });
      return z.NEVER;
    }
    if (list.length > 20) {
      ctx.addIssue({ code: 'custom', message: 'must have at most 20 categories' });
      return z.NEVER;
    }
    return list as string[];
  });

export function registerAdminBlogrollRoutes(scope: FastifyInstance, ctx: FeedsContext): void {
  defineRoute(scope, {
    method: 'PUT',
    url: '/admin/blogroll/:username',
    params: usernameParam,
    input: z.object({ categories: categoriesParam }),
    response: { 200: blogrollEntrySchema },
    handler: ({ params, input }) => addToBlogroll(ctx, params.username, input.categories),
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/admin/blogroll/:username',
    params: usernameParam,
    response: { 200: emptySchema },
    handler: async ({ params }) => {
      await removeFromBlogroll(ctx, params.username);
      return {};
    },
  });
}
