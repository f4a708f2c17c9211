// Web Push endpoints beyond the interface (docs/api/push.md, "Web Push"): the VAPID public key for
// `pushManager.subscribe()`, and registering or removing a browser's PushSubscription. Register and
// unregister count toward the same per-user limit as the device endpoints.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formatOffsetTime } from '@murmur/core';
import { defineRoute, zParam } from '@murmur/http';
import type { PushContext } from '../domain/context.js';
import { registerWebSub, unregisterWebSub, vapidKeys } from '../domain/web-push.js';
import { statusSchema } from '../shapes.js';

const subscriptionSchema = z.object({ endpoint: z.string(), created_at: z.string() });
const registeredSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  subscription: subscriptionSchema,
});

const endpointParam = zParam.string({ min: 1, max: 2048, trim: true });

export function registerWebRoutes(scope: FastifyInstance, ctx: PushContext): void {
  const rateLimit = {
    key: 'user' as const,
    name: 'push-register',
    max: ctx.config.PUSH_REGISTER_PER_MINUTE,
    windowMs: 60_000,
    message: 'Too many device registrations. Try again later.',
  };

  defineRoute(scope, {
    method: 'GET',
    url: '/users/push/web/key',
    response: { 200: z.object({ public_key: z.string() }) },
    handler: async () => ({ public_key: (await vapidKeys(ctx)).publicKey }),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/users/push/web/register',
    auth: 'required',
    rateLimit,
    bodyLimit: 8 * 1024,
    // The browser's PushSubscription as JSON.stringify gives it.
    input: z.object({
      endpoint: endpointParam,
      keys: z.object({ p256dh: z.string().max(200), auth: z.string().max(100) }),
      expirationTime: z.unknown().optional(),
    }),
    response: { 200: registeredSchema, 201: registeredSchema },
    handler: async ({ auth, input, reply }) => {
      const { created, subscription } = await registerWebSub(ctx, auth.userId, {
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
      });
      reply.code(created ? 201 : 200);
      return {
        status: 'success' as const,
        message: created ? 'Subscription registered.' : 'Subscription already registered.',
        subscription: {
          endpoint: subscription.endpoint,
          created_at: formatOffsetTime(subscription.createdAt),
        },
      };
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/users/push/web/unregister',
    auth: 'required',
    rateLimit,
    input: z.object({ endpoint: endpointParam }),
    response: { 200: statusSchema, 404: statusSchema },
    handler: async ({ auth, input, reply }) => {
      if (!(await unregisterWebSub(ctx, auth.userId, input.endpoint))) {
        reply.code(404);
        return { status: 'error' as const, message: 'Subscription not registered.' };
      }
      return { status: 'success' as const, message: 'Subscription unregistered.' };
    },
  });
}
