// Operator API: push apps (APNs credentials) and the delivery log. Guarded by MURMUR_ADMIN_TOKEN
// like every /admin route. The key is accepted here and never sent back: app records carry every
// field but the key.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, formatOffsetTime } from '@murmur/core';
import { defineRoute, zParam } from '@murmur/http';
import { listApps, putApp, removeApp } from '../domain/apps.js';
import type { PushContext } from '../domain/context.js';
import { deliveryJson, recentDeliveries } from '../domain/delivery-log.js';
import { validAppName } from '../domain/params.js';
import { PUSH_ENVS, type AppDoc, type PushEnv } from '../store/index.js';
import { appListSchema, appSchema, deliveryLogSchema, emptySchema } from '../shapes.js';

function appJson(app: AppDoc): z.input<typeof appSchema> {
  return {
    name: app._id,
    team_id: app.teamId,
    key_id: app.keyId,
    topic: app.topic,
    environments: app.environments,
    default: app.isDefault,
    created_at: formatOffsetTime(app.createdAt),
    updated_at: formatOffsetTime(app.updatedAt),
  };
}

const nameParams = z.object({
  name: z.string().refine(validAppName, { error: 'must be 1 to 100 characters' }),
});

const appId = (name: string) =>
  zParam.string({ min: 1, max: 64, trim: true }).refine((v) => /^[A-Za-z0-9]+$/.test(v), {
    error: `${name} must be letters and digits (Apple's 10-character id)`,
  });

const environmentsParam = z
  .unknown()
  .optional()
  .transform((raw): PushEnv[] => {
    if (raw === undefined || raw === '') return [...PUSH_ENVS];
    const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [null]).map((v) =>
      typeof v === 'string' ? v.trim() : v,
    );
    const envs = new Set<PushEnv>();
    for (const v of list) {
      if (v !== 'production' && v !== 'sandbox') {
        throw badRequest('environments: must be a list of production and sandbox', 'environments');
      }
      envs.add(v);
    }
    return PUSH_ENVS.filter((e) => envs.has(e));
  });

const appInput = z.object({
  team_id: appId('team_id'),
  key_id: appId('key_id'),
  key: zParam.string({ min: 1, max: 10_000 }),
  topic: zParam
    .string({ min: 1, max: 255, trim: true })
    .refine((v) => /^[A-Za-z0-9.-]+$/.test(v), { error: 'must be a bundle id (letters, digits, . and -)' }),
  environments: environmentsParam,
  default: zParam.bool().optional(),
});

export function registerAdminRoutes(scope: FastifyInstance, ctx: PushContext): void {
  defineRoute(scope, {
    method: 'PUT',
    url: '/admin/push/apps/:name',
    params: nameParams,
    input: appInput,
    bodyLimit: 16 * 1024,
    response: { 200: appSchema, 201: appSchema },
    handler: async ({ params, input, reply }) => {
      const { created, app } = await putApp(ctx, {
        name: params.name,
        teamId: input.team_id,
        keyId: input.key_id,
        key: input.key,
        topic: input.topic,
        environments: input.environments,
        isDefault: input.default ?? false,
      });
      reply.code(created ? 201 : 200);
      return appJson(app);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/push/apps',
    response: { 200: appListSchema },
    handler: async () => ({ apps: (await listApps(ctx)).map(appJson) }),
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/admin/push/apps/:name',
    params: nameParams,
    response: { 200: emptySchema },
    handler: async ({ params }) => {
      await removeApp(ctx, params.name);
      return {};
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/admin/push/log',
    input: z.object({
      user_id: zParam.id().optional(),
      limit: zParam.int({ min: 1, max: 1000, clamp: true }).default(100),
    }),
    response: { 200: deliveryLogSchema },
    handler: async ({ input }) => ({
      deliveries: (await recentDeliveries(ctx, { userId: input.user_id, limit: input.limit })).map(
        deliveryJson,
      ),
    }),
  });
}
