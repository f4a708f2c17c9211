// Apps registered by the operator. A sign-in link only ever points at a redirect URL registered
// here, so /account/signin cannot be used to mail people links to arbitrary sites.
import { badRequest, conflict, notFound } from '@murmur/core';
import { DuplicateKeyError } from '@murmur/store';
import { appView, type AppJson } from './app-json.js';
import type { AppDoc } from '../store/index.js';
import type { IdentityContext } from './context.js';

const nameTaken = (appName: string) => conflict(`app_name: "${appName}" is already registered`);

/** Registers an app; its name is unique (409 when taken). */
export async function registerApp(
  ctx: IdentityContext,
  appName: string,
  redirectUrl: string,
): Promise<AppJson> {
  if (await ctx.store.appByName(appName)) throw nameTaken(appName);
  const app: AppDoc = { _id: await ctx.store.nextAppId(), appName, redirectUrl, createdAt: ctx.clock.now() };
  try {
    return appView(await ctx.store.insertApp(app));
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw nameTaken(appName);
    throw err;
  }
}

export async function listApps(ctx: IdentityContext): Promise<AppJson[]> {
  return (await ctx.store.listApps()).map(appView);
}

export async function deleteApp(ctx: IdentityContext, id: number): Promise<void> {
  if (!(await ctx.store.deleteApp(id))) throw notFound('No such app.');
}

export interface SigninTarget {
  /** Recorded on the sign-in token; labels the app token it turns into. */
  appName: string | null;
  /** Where the emailed link points; null → the web sign-in page. */
  redirectUrl: string | null;
}

/**
 * Checks `app_name` / `redirect_url` of a sign-in request against the registered apps.
 * Without `app_name`, a `redirect_url` must belong to some registered app (a mobile client sends it that way).
 */
export async function signinTarget(
  ctx: IdentityContext,
  appName: string | undefined,
  redirectUrl: string | undefined,
): Promise<SigninTarget> {
  if (appName !== undefined) {
    const app = await ctx.store.appByName(appName);
    if (!app) throw badRequest(`app_name "${appName}" is not a registered app.`, 'app_name');
    if (redirectUrl !== undefined && redirectUrl !== app.redirectUrl) {
      throw badRequest(`redirect_url is not the registered redirect URL of ${appName}.`, 'redirect_url');
    }
    return { appName: app.appName, redirectUrl: app.redirectUrl };
  }
  if (redirectUrl !== undefined) {
    const app = await ctx.store.appByRedirectUrl(redirectUrl);
    if (!app) throw badRequest('redirect_url is not the redirect URL of a registered app.', 'redirect_url');
    return { appName: app.appName, redirectUrl: app.redirectUrl };
  }
  return { appName: null, redirectUrl: null };
}
