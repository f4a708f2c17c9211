// The device endpoints of the interface: info, register, unregister (docs/api/push.md). Register and
// unregister share one per-user limit (PUSH_REGISTER_PER_MINUTE), counted in the store.
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '@murmur/http';
import type { PushContext } from '../domain/context.js';
import { deviceJson } from '../domain/device-json.js';
import { devicesInfo, registerDevice, unregisterDevice } from '../domain/devices.js';
import { deviceInput, infoInput } from './params.js';
import { deviceListSchema, registeredSchema, statusSchema } from '../shapes.js';

export function registerDeviceRoutes(scope: FastifyInstance, ctx: PushContext): void {
  const rateLimit = {
    key: 'user' as const,
    name: 'push-register',
    max: ctx.config.PUSH_REGISTER_PER_MINUTE,
    windowMs: 60_000,
    message: 'Too many device registrations. Try again later.',
  };

  defineRoute(scope, {
    method: 'GET',
    url: '/users/push/info',
    auth: 'required',
    input: infoInput,
    response: { 200: deviceListSchema },
    handler: async ({ auth, input }) =>
      (
        await devicesInfo(ctx, auth.userId, {
          pushEnv: input.push_env,
          appName: input.app_name,
          token: input.device_token,
        })
      ).map(deviceJson),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/users/push/register',
    auth: 'required',
    input: deviceInput,
    rateLimit,
    response: { 200: registeredSchema, 201: registeredSchema },
    handler: async ({ auth, input, reply }) => {
      const { created, device } = await registerDevice(ctx, auth.userId, {
        token: input.device_token,
        pushEnv: input.push_env,
        appName: input.app_name,
      });
      reply.code(created ? 201 : 200);
      return {
        status: 'success' as const,
        message: created ? 'Device registered.' : 'Device already registered.',
        device: deviceJson(device),
      };
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/users/push/unregister',
    auth: 'required',
    input: deviceInput,
    rateLimit,
    response: { 200: statusSchema, 404: statusSchema },
    handler: async ({ auth, input, reply }) => {
      const removed = await unregisterDevice(ctx, auth.userId, {
        token: input.device_token,
        pushEnv: input.push_env,
        appName: input.app_name,
      });
      if (!removed) {
        // Clients read a 404 as "already gone"; the body is the interface's, not an error body.
        reply.code(404);
        return { status: 'error' as const, message: 'Device not registered.' };
      }
      return { status: 'success' as const, message: 'Device unregistered.' };
    },
  });
}
