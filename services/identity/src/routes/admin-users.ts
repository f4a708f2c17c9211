// Operator API for accounts: create, list, show, edit; issue and list a user's app tokens.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { busHeaders, defineRoute, zParam } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import {
  accountTokens,
  createAccount,
  editAccount,
  issueAccountToken,
  listAccounts,
  showAccount,
} from '../domain/operator.js';
import type { ProfileFields } from '../store/index.js';
import { avatarUrl, optionalText, patchText, profileLinks, requiredText } from './params.js';
import { adminUserSchema, createdUserSchema, issuedTokenSchema, tokenInfoSchema } from '../shapes.js';

const idParams = z.object({ id: zParam.id() });

const planName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, {
  message: 'must be 1 to 50 characters of a-z, 0-9, _ or -',
});
const planList = z
  .unknown()
  .transform((raw) => (typeof raw === 'string' ? raw.split(',').map((p) => p.trim()) : raw))
  .pipe(
    z
      .array(planName, { error: 'must be a list of plan names' })
      .min(1, { error: 'must not be empty' })
      .max(20),
  );

export function registerAdminUserRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/admin/users',
    input: z.object({ username: requiredText(64), email: requiredText(1024), name: optionalText(100) }),
    response: { 201: createdUserSchema },
    handler: async ({ input, request, reply }) => {
      const created = await createAccount(ctx, input, busHeaders(request));
      reply.code(201);
      return created;
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/users',
    input: z.object({
      limit: zParam.int({ min: 1, max: 1000, clamp: true }).optional(),
      offset: zParam.int({ min: 0 }).optional(),
    }),
    response: { 200: z.object({ users: z.array(adminUserSchema) }) },
    handler: async ({ input }) => ({ users: await listAccounts(ctx, input.limit ?? 100, input.offset ?? 0) }),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/users/:id',
    params: idParams,
    response: { 200: adminUserSchema },
    handler: async ({ params }) => showAccount(ctx, params.id),
  });

  defineRoute(scope, {
    method: 'PATCH',
    url: '/admin/users/:id',
    params: idParams,
    input: z.object({
      name: patchText(100),
      full_name: patchText(200),
      bio: patchText(2000),
      avatar: avatarUrl(),
      links: profileLinks(),
      plan: planName.optional(),
      plans: planList.optional(),
    }),
    response: { 200: adminUserSchema },
    handler: async ({ params, input, request }) => {
      const fields: ProfileFields = {};
      if (input.name !== undefined) fields.name = input.name;
      if (input.full_name !== undefined) fields.fullName = input.full_name;
      if (input.bio !== undefined) fields.bio = input.bio;
      if (input.avatar !== undefined) fields.avatar = input.avatar;
      if (input.links !== undefined) fields.links = input.links;
      if (input.plan !== undefined) fields.plan = input.plan;
      if (input.plans !== undefined) fields.plans = input.plans;
      return editAccount(ctx, params.id, fields, busHeaders(request));
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/admin/users/:id/tokens',
    params: idParams,
    input: z.object({ label: optionalText(100) }),
    response: { 201: issuedTokenSchema },
    handler: async ({ params, input, reply }) => {
      const issued = await issueAccountToken(ctx, params.id, input.label ?? 'admin');
      reply.code(201);
      return issued;
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/users/:id/tokens',
    params: idParams,
    response: { 200: z.object({ tokens: z.array(tokenInfoSchema) }) },
    handler: async ({ params }) => ({ tokens: await accountTokens(ctx, params.id) }),
  });
}
