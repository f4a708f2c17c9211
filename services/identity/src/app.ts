// The identity HTTP app: the platform's app (limits, errors, health, metrics, auth hook) plus
// identity's routes. It never listens; runtime (or a test) decides that.
import type { FastifyInstance } from 'fastify';
import { createHttpApp, requireAdminToken } from '@murmur/http';
import type { ServiceHttpOptions } from '@murmur/runtime';
import type { IdentityContext } from './domain/context.js';
import { registerAppleRoute } from './routes/account-apple.js';
import { registerAvatarRoute } from './routes/account-avatar.js';
import { registerMeRoute } from './routes/account-me.js';
import { registerSigninRoute } from './routes/account-signin.js';
import { registerVerifyRoute } from './routes/account-verify.js';
import { registerWebSigninRoutes } from './routes/account-web.js';
import { registerAdminAppRoutes } from './routes/admin-apps.js';
import { registerAdminTokenRoutes } from './routes/admin-tokens.js';
import { registerAdminUserRoutes } from './routes/admin-users.js';
import { registerIndieAuthScreenRoutes } from './routes/indieauth-screens.js';
import { registerIndieAuthTokenRoutes } from './routes/indieauth-token.js';
import { registerProfilePageRoute } from './routes/profile-page.js';

export async function buildIdentityApp(
  ctx: IdentityContext,
  http: ServiceHttpOptions,
): Promise<FastifyInstance> {
  const app = await createHttpApp({
    ...http,
    // IndieAuth's machine endpoints (and their 404s) answer in OAuth's shape; its screens say otherwise per route.
    errorStyle: (url) =>
      url.startsWith('/indieauth/') || url.startsWith('/.well-known/oauth-authorization-server')
        ? 'oauth'
        : 'simple',
  });

  await app.register(async (scope) => {
    registerSigninRoute(scope, ctx);
    registerVerifyRoute(scope, ctx);
    registerAppleRoute(scope, ctx);
    registerMeRoute(scope, ctx);
    registerAvatarRoute(scope);
  });

  // Own scope: its onRequest hook sets the no-referrer / no-store headers of token-carrying pages.
  await app.register(async (scope) => registerWebSigninRoutes(scope, ctx));

  await app.register(async (scope) => registerIndieAuthScreenRoutes(scope, ctx));
  // Own scope: its onRequest hook marks every token response and error no-store.
  await app.register(async (scope) => registerIndieAuthTokenRoutes(scope, ctx));
  await app.register(async (scope) => registerProfilePageRoute(scope, ctx));

  // Own scope: the admin token check applies to these routes only.
  await app.register(async (scope) => {
    requireAdminToken(scope, ctx.config.MURMUR_ADMIN_TOKEN);
    registerAdminUserRoutes(scope, ctx);
    registerAdminTokenRoutes(scope, ctx);
    registerAdminAppRoutes(scope, ctx);
  });

  return app;
}
