// Apps registered by the operator. A sign-in link only ever points at a redirect URL registered
// here, so /account/signin cannot be used to mail people links to arbitrary sites.
import { badRequest, DuplicateKeyError } from '@murmur/platform';
import type { AppDoc } from '../store.js';
import type { IdentityContext } from './context.js';

export class AppNameTakenError extends Error {
  constructor(appName: string) {
    super(`app_name: "${appName}" is already registered`);
    this.name = 'AppNameTakenError';
  }
}

export async function registerApp(
  ctx: IdentityContext,
  appName: string,
  redirectUrl: string,
): Promise<AppDoc> {
  if (await ctx.store.appByName(appName)) throw new AppNameTakenError(appName);
  const app: AppDoc = { _id: await ctx.store.nextAppId(), appName, redirectUrl, createdAt: ctx.now() };
  try {
    return await ctx.store.insertApp(app);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw new AppNameTakenError(appName);
    throw err;
  }
}

export function appView(app: AppDoc) {
  return { id: app._id, app_name: app.appName, redirect_url: app.redirectUrl };
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
