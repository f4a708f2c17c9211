// Device registration (docs/api/push.md): register, list, unregister. A record is unique per (token,
// environment, app); a token belongs to the account that registered it first until that account
// unregisters it or APNs reports it gone; a user keeps at most 100 devices.
import { badRequest, conflict } from '@murmur/core';
import type { DeviceDoc, DeviceKey, PushEnv } from '../store/index.js';
import { resolveAppName } from './apps.js';
import type { PushContext } from './context.js';
import { MAX_DEVICES_PER_USER } from './params.js';

export interface DeviceInput {
  token: string;
  pushEnv: PushEnv;
  /** Absent → the default app. */
  appName?: string | undefined;
}

async function keyOf(ctx: PushContext, input: DeviceInput): Promise<DeviceKey> {
  return { token: input.token, pushEnv: input.pushEnv, appName: await resolveAppName(ctx, input.appName) };
}

/** What another account hears when it registers a device this one holds (docs/api/push.md). */
export const DEVICE_TAKEN =
  'This device is registered to another account. Sign out of that account on the device (which ' +
  'unregisters it) before registering it here.';

/**
 * Registers the device for `userId`. A repeat (apps register on every launch) is one read and gives
 * back the stored record with its original `created_at`. A token another account holds, in any
 * environment or app, stays there: 409. A token is no proof of holding the phone (it passes through
 * logs, backups and other apps' servers), so moving it on demand would let anyone who learnt one take
 * its owner's notifications away and send their own to that phone.
 */
export async function registerDevice(
  ctx: PushContext,
  userId: number,
  input: DeviceInput,
): Promise<{ created: boolean; device: DeviceDoc }> {
  const key = await keyOf(ctx, input);
  // Two concurrent registrations of one token race on the unique index; the loser looks again.
  for (let round = 0; round < 3; round++) {
    const existing = await ctx.store.deviceByKey(key);
    if (existing?.userId === userId) return { created: false, device: existing };
    if (existing || (await ctx.store.tokenHeldByOtherUser(key.token, userId))) throw conflict(DEVICE_TAKEN);
    const device = await ctx.store.insertDevice({ userId, ...key, createdAt: ctx.clock.now() });
    if (device) {
      await ctx.store.trimDevicesOfUser(userId, MAX_DEVICES_PER_USER);
      return { created: true, device };
    }
  }
  throw badRequest('The device is being registered by another request; try again.', 'device_token');
}

/** The caller's devices of that environment and app (and token), oldest first. */
export async function devicesInfo(
  ctx: PushContext,
  userId: number,
  input: { pushEnv: PushEnv; appName?: string | undefined; token?: string | undefined },
): Promise<DeviceDoc[]> {
  const appName = await resolveAppName(ctx, input.appName);
  return ctx.store.devicesOfUser(userId, {
    pushEnv: input.pushEnv,
    appName,
    ...(input.token === undefined ? {} : { token: input.token }),
  });
}

/** Removes the caller's record; false when the caller has none for that environment and app. */
export async function unregisterDevice(
  ctx: PushContext,
  userId: number,
  input: DeviceInput,
): Promise<boolean> {
  return ctx.store.deleteDeviceOfUser(userId, await keyOf(ctx, input));
}
