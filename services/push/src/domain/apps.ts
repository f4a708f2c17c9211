// Push apps: the APNs credentials the operator registers (team id, key id, `.p8` key, bundle id,
// environments). The key stays in the store: it is used to sign provider tokens and is never logged
// or returned (docs/security.md).
import { importPKCS8 } from 'jose';
import { badRequest, notFound } from '@murmur/core';
import type { AppDoc, PushEnv } from '../store/index.js';
import type { PushContext } from './context.js';
import { FALLBACK_APP_NAME } from './params.js';

export const UNKNOWN_APP = 'Unknown app_name.';

/**
 * The app a request names: absent → the default app (or `default` while none is marked); a name
 * without registered credentials → 400 `Unknown app_name.`.
 */
export async function resolveAppName(ctx: PushContext, appName: string | undefined): Promise<string> {
  if (appName === undefined) return (await ctx.store.defaultApp())?._id ?? FALLBACK_APP_NAME;
  if (await ctx.store.appByName(appName)) return appName;
  if (appName === FALLBACK_APP_NAME && !(await ctx.store.defaultApp())) return appName;
  throw badRequest(UNKNOWN_APP, 'app_name');
}

/** How long a process reuses an app's credentials before reading them again (other replicas' changes). */
export const APP_CACHE_MS = 5_000;

/**
 * The credentials a device is delivered with: its app, or the default app for the `default` name.
 * Read at most every APP_CACHE_MS per name (a delivery burst reads them once); this process's own
 * changes drop the cache at once.
 */
export async function appForDevice(ctx: PushContext, appName: string): Promise<AppDoc | null> {
  const now = ctx.clock.nowMs();
  const cached = ctx.appCache.get(appName);
  if (cached && now - cached.readAt < APP_CACHE_MS) return cached.app;
  let app = await ctx.store.appByName(appName);
  if (!app && appName === FALLBACK_APP_NAME) app = await ctx.store.defaultApp();
  ctx.appCache.set(appName, { app, readAt: now });
  return app;
}

export interface AppInput {
  name: string;
  teamId: string;
  keyId: string;
  key: string;
  topic: string;
  environments: PushEnv[];
  isDefault: boolean;
}

/** Checks that `pem` is an ES256 private key in PKCS#8 PEM, without ever echoing it. */
async function checkKey(pem: string): Promise<void> {
  try {
    await importPKCS8(pem, 'ES256');
  } catch {
    throw badRequest(
      'key: must be an ES256 (P-256) private key in PKCS#8 PEM, as Apple issues .p8 files',
      'key',
    );
  }
}

/** Creates or replaces an app; the first app registered becomes the default. */
export async function putApp(ctx: PushContext, input: AppInput): Promise<{ created: boolean; app: AppDoc }> {
  await checkKey(input.key);
  const now = ctx.clock.now();
  const hadDefault = (await ctx.store.defaultApp()) !== null;
  const created = await ctx.store.putApp({
    _id: input.name,
    teamId: input.teamId,
    keyId: input.keyId,
    key: input.key.trim() + '\n',
    topic: input.topic,
    environments: input.environments,
    isDefault: false,
    createdAt: now,
    updatedAt: now,
  });
  if (input.isDefault || !hadDefault) await ctx.store.makeDefault(input.name);
  // Devices registered before any app existed carry the fallback name: they belong to the first app.
  if (!hadDefault && input.name !== FALLBACK_APP_NAME) {
    await ctx.store.moveDevicesToApp(FALLBACK_APP_NAME, input.name);
  }
  ctx.apns.forgetApp(input.name);
  ctx.appCache.clear();
  ctx.logger.info({ app: input.name, environments: input.environments }, 'push app credentials stored');
  return { created, app: (await ctx.store.appByName(input.name))! };
}

export function listApps(ctx: PushContext): Promise<AppDoc[]> {
  return ctx.store.listApps();
}

export async function removeApp(ctx: PushContext, name: string): Promise<void> {
  if (!(await ctx.store.deleteApp(name))) throw notFound('No such push app.');
  ctx.apns.forgetApp(name);
  ctx.appCache.clear();
  ctx.logger.info({ app: name }, 'push app removed');
}
