// Browser sign-in: GET /account/signin/web shows the emailed link's confirmation page, POST from that
// page consumes the sign-in token and starts a cookie session (domain/web-signin.ts says why it takes
// two steps); GET / (the home page) shows who the session belongs to. All are pages, so their errors
// are pages.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import {
  readCookie,
  safeReturnTo,
  SESSION_COOKIE,
  sessionCookie,
  SIGNED_IN_PATH,
  webSessionUser,
} from '../domain/sessions.js';
import {
  CONFIRM_COOKIE,
  confirmationValid,
  confirmCookie,
  newConfirmation,
  signInWithLink,
  signinLinkLive,
  WEB_SIGNIN_PATH,
} from '../domain/web-signin.js';
import { sendHtml } from './html.js';
import { optionalText } from './params.js';
import { sendPage } from './pages.js';
import { confirmSigninScreen } from './web-signin-views.js';

const linkInput = z.object({ token: optionalText(512), return_to: optionalText(2048) });

export function registerWebSigninRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  // Set before anything can fail, so error pages of a URL carrying a token are covered too.
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  });
  const secureCookie = ctx.config.PUBLIC_URL.startsWith('https:');
  const confirmMaxAge = ctx.config.SIGNIN_TOKEN_TTL_MINUTES * 60;

  const missingToken = (reply: Parameters<typeof sendPage>[0]) =>
    sendPage(reply, 400, 'Sign-in link incomplete', ['This link has no sign-in token in it.']);
  const notValid = (reply: Parameters<typeof sendPage>[0]) =>
    sendPage(reply, 401, 'Sign-in link not valid', [
      'This sign-in link has expired or has already been used.',
      'Ask for a new one from the app or site you were signing in to.',
    ]);

  defineRoute(scope, {
    method: 'GET',
    url: WEB_SIGNIN_PATH,
    errorStyle: 'html',
    input: linkInput,
    handler: async ({ input, request, reply }) => {
      // Mail scanners probe links with HEAD (Fastify answers HEAD with the GET route).
      if (request.method === 'HEAD') return sendPage(reply, 200, 'Sign in', []);
      await ctx.limits.enforce('signin-web-ip', request.ip);
      if (input.token === undefined) return missingToken(reply);
      if (!(await signinLinkLive(ctx, input.token))) return notValid(reply);
      const confirmation = newConfirmation(ctx);
      reply.header('set-cookie', confirmCookie(confirmation.cookie, confirmMaxAge, secureCookie));
      return sendHtml(
        reply,
        200,
        confirmSigninScreen({ token: input.token, returnTo: input.return_to, csrf: confirmation.csrf }),
      );
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: WEB_SIGNIN_PATH,
    errorStyle: 'html',
    input: linkInput.extend({ csrf: optionalText(128) }),
    handler: async ({ input, request, reply }) => {
      await ctx.limits.enforce('signin-web-ip', request.ip);
      if (input.token === undefined) return missingToken(reply);
      if (!confirmationValid(ctx, readCookie(request.headers.cookie, CONFIRM_COOKIE), input.csrf)) {
        return sendPage(reply, 403, 'This form cannot be accepted', [
          'It was not sent from the sign-in page of this browser. Open the link from your email again.',
        ]);
      }
      const session = await signInWithLink(ctx, input.token);
      if (!session) return notValid(reply);
      request.log.info({ userId: session.userId }, 'web session started');
      return reply
        .header('set-cookie', [
          sessionCookie(session.sessionId, session.expiresAt, secureCookie),
          confirmCookie('', 0, secureCookie),
        ])
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
