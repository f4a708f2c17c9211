// Browser sign-in: GET /account/signin/web consumes an emailed sign-in token and starts a cookie
// session; GET / (the home page) shows who the session belongs to. Both are pages, so their errors are pages.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/platform';
import type { IdentityContext } from '../domain/context.js';
import { enforceLimit } from '../domain/limits.js';
import {
  readCookie,
  safeReturnTo,
  SESSION_COOKIE,
  sessionCookie,
  SIGNED_IN_PATH,
  startWebSession,
  webSessionUser,
} from '../domain/sessions.js';
import { consumeSigninToken } from '../domain/signin.js';
import { optionalText } from './params.js';
import { sendPage } from './pages.js';

export function registerWebSigninRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  // Set before anything can fail, so error pages of a URL carrying a token are covered too.
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  });
  const secureCookie = ctx.config.PUBLIC_URL.startsWith('https:');

  defineRoute(scope, {
    method: 'GET',
    url: '/account/signin/web',
    errorStyle: 'html',
    input: z.object({ token: optionalText(512), return_to: optionalText(2048) }),
    handler: async ({ input, request, reply }) => {
      // Mail scanners probe links with HEAD (Fastify answers HEAD with the GET route): that must not
      // use up the person's sign-in.
      if (request.method === 'HEAD') return sendPage(reply, 200, 'Sign in', []);
      await enforceLimit(
        ctx.limits.webSigninPerIp,
        request.ip,
        'Too many sign-in attempts. Try again later.',
      );
      if (input.token === undefined) {
        return sendPage(reply, 400, 'Sign-in link incomplete', ['This link has no sign-in token in it.']);
      }
      const signin = await consumeSigninToken(ctx, input.token);
      if (!signin) {
        return sendPage(reply, 401, 'Sign-in link not valid', [
          'This sign-in link has expired or has already been used.',
          'Ask for a new one from the app or site you were signing in to.',
        ]);
      }
      const session = await startWebSession(ctx, signin.user._id);
      request.log.info({ userId: signin.user._id }, 'web session started');
      return reply
        .header('set-cookie', sessionCookie(session.sessionId, session.expiresAt, secureCookie))
        .redirect(safeReturnTo(input.return_to), 302);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: SIGNED_IN_PATH,
    errorStyle: 'html',
    handler: async ({ request, reply }) => {
      const user = await webSessionUser(ctx, readCookie(request.headers.cookie, SESSION_COOKIE));
      if (!user) {
        return sendPage(reply, 200, 'Murmur', [
          'This is a Murmur server. Sign in from your app, or open the sign-in link from your email.',
        ]);
      }
      return sendPage(reply, 200, 'Signed in', [`Signed in as @${user.username}.`]);
    },
  });
}
