// The browser side of IndieAuth: the authorization screen, the consent form's answer, the emailed
// sign-in that brings the person back to the screen, and sign-out. Errors here are pages for a
// person, never JSON and never a redirect to an untrusted URI; once the client and its redirect_uri
// are checked, the client's own errors go back to it (domain/authorization.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import {
  decideAuthorization,
  openAuthorizationRequest,
  pendingRequest,
  SCREEN_PATH,
  type AuthorizationParams,
} from '../domain/authorization.js';
import type { IdentityContext } from '../domain/context.js';
import { csrfToken, csrfTokenValid } from '../domain/csrf.js';
import { parseEmail } from '../domain/emails.js';
import { meUrl } from '../domain/profile.js';
import {
  clearedSessionCookie,
  endWebSession,
  readCookie,
  safeReturnTo,
  SESSION_COOKIE,
  webSessionUser,
} from '../domain/sessions.js';
import { requestSigninEmail } from '../domain/signin.js';
import type { AuthRequestDoc, UserDoc } from '../store/index.js';
import { SCREEN_CSS, sendHtml, STYLESHEET_PATH } from './html.js';
import {
  checkEmailScreen,
  consentScreen,
  messageScreen,
  signinScreen,
  type ScreenClient,
} from './indieauth-views.js';
import { oauthParam, repeatedParams } from './params.js';

/** The screen's parameters exactly as sent (`state` must come back unchanged); none is refused here. */
const authorizationInput = z.object({
  client_id: oauthParam(),
  redirect_uri: oauthParam(),
  state: oauthParam(),
  response_type: oauthParam(),
  scope: oauthParam(),
  me: oauthParam(),
  code_challenge: oauthParam(),
  code_challenge_method: oauthParam(),
  inkwell: oauthParam(),
}) satisfies z.ZodType<AuthorizationParams>;

/**
 * The ticked scopes. The form always sends an empty `scope` next to its checkboxes, so "all boxes
 * unticked" arrives as an empty list; a client that sends no `scope` at all approves what it asked for.
 */
const tickedScopes = z
  .unknown()
  .transform((raw): string[] | undefined => {
    if (raw === undefined || raw === null) return undefined;
    return (Array.isArray(raw) ? raw : [raw])
      .filter((v): v is string => typeof v === 'string')
      .flatMap((v) => v.split(/\s+/))
      .filter((w) => w !== '');
  })
  .optional();

const approveInput = z.object({
  request: oauthParam(),
  csrf: oauthParam(),
  deny: oauthParam(),
  scope: tickedScopes,
});

const START_AGAIN = 'Go back to the app you came from and start signing in again.';

export function registerIndieAuthScreenRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const secureCookie = ctx.config.PUBLIC_URL.startsWith('https:');

  async function sessionOf(request: FastifyRequest): Promise<{ sessionId: string; user: UserDoc } | null> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    const user = await webSessionUser(ctx, sessionId);
    return user && sessionId ? { sessionId, user } : null;
  }

  async function screenFor(request: AuthRequestDoc, requestId: string): Promise<ScreenClient> {
    return { request, requestId, client: await ctx.clientInfo.load(new URL(request.clientId)) };
  }

  defineRoute(scope, {
    method: 'GET',
    url: SCREEN_PATH,
    errorStyle: 'html',
    input: authorizationInput,
    handler: async ({ input, request, reply }) => {
      await ctx.limits.enforce('indieauth-screen-ip', request.ip);
      // OAuth parameters may not be repeated (RFC 6749 §3.1); the schema keeps the last, so ask the query.
      const repeated = repeatedParams(request.query, Object.keys(authorizationInput.shape));
      const outcome = await openAuthorizationRequest(ctx, input, repeated);
      if (outcome.kind === 'invalid') {
        return sendHtml(
          reply,
          400,
          messageScreen('This sign-in request is not valid', [
            outcome.message,
            `${START_AGAIN} If it keeps happening, tell the app's developer.`,
          ]),
        );
      }
      if (outcome.kind === 'redirect') {
        return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
      }
      const screen: ScreenClient = outcome;
      const session = await sessionOf(request);
      if (!session) return sendHtml(reply, 200, signinScreen(screen));
      return sendHtml(
        reply,
        200,
        consentScreen(screen, {
          user: session.user,
          me: meUrl(session.user, ctx.config.PUBLIC_URL),
          csrf: csrfToken(ctx.csrfSecret, session.sessionId, `approve:${outcome.requestId}`),
          signoutCsrf: csrfToken(ctx.csrfSecret, session.sessionId, 'signout'),
        }),
      );
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/approve',
    errorStyle: 'html',
    input: approveInput,
    handler: async ({ input, request, reply }) => {
      await ctx.limits.enforce('indieauth-screen-ip', request.ip);
      const requestId = input.request;
      const session = await sessionOf(request);
      if (!session) {
        const pending = requestId ? await pendingRequest(ctx, requestId) : null;
        const page = pending
          ? signinScreen(await screenFor(pending, requestId!), {
              error: 'You are not signed in (any more). Sign in to continue.',
            })
          : messageScreen('You are not signed in', [START_AGAIN]);
        return sendHtml(reply, 401, page);
      }
      if (
        !requestId ||
        !csrfTokenValid(ctx.csrfSecret, session.sessionId, `approve:${requestId}`, input.csrf)
      ) {
        return sendHtml(
          reply,
          403,
          messageScreen('This form cannot be accepted', [
            'It was not sent from the sign-in screen of your current session.',
            START_AGAIN,
          ]),
        );
      }
      const location = await decideAuthorization(ctx, requestId, session.user, {
        deny: input.deny !== undefined && input.deny !== '0',
        ticked: input.scope,
      });
      if (location === null) {
        return sendHtml(
          reply,
          400,
          messageScreen('This sign-in request has expired', [
            'Sign-in requests last ten minutes and can be answered once.',
            START_AGAIN,
          ]),
        );
      }
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/signin',
    errorStyle: 'html',
    input: z.object({ request: oauthParam(), email: oauthParam() }),
    handler: async ({ input, request, reply }) => {
      await ctx.limits.enforce('indieauth-screen-ip', request.ip);
      const requestId = input.request;
      const pending = requestId ? await pendingRequest(ctx, requestId) : null;
      if (!pending) {
        return sendHtml(
          reply,
          400,
          messageScreen('This sign-in request has expired', [
            'Sign-in requests last ten minutes.',
            START_AGAIN,
          ]),
        );
      }
      const screen = await screenFor(pending, requestId!);
      const typed = input.email ?? '';
      const email = parseEmail(typed);
      if (email === null) {
        return sendHtml(
          reply,
          400,
          signinScreen(screen, { email: typed, error: 'Enter a valid email address.' }),
        );
      }
      // The link returns to the screen's own URL, so it works even after this request has expired.
      const returnTo = safeReturnTo(pending.screenPath) === pending.screenPath ? pending.screenPath : null;
      await requestSigninEmail(ctx, {
        email,
        ip: request.ip,
        target: { appName: null, redirectUrl: null },
        isMobile: false,
        returnTo,
      });
      return sendHtml(reply, 200, checkEmailScreen(screen, email, ctx.config.SIGNIN_TOKEN_TTL_MINUTES));
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/account/signout',
    errorStyle: 'html',
    input: z.object({ csrf: oauthParam(), return_to: oauthParam() }),
    handler: async ({ input, request, reply }) => {
      const session = await sessionOf(request);
      if (session) {
        if (!csrfTokenValid(ctx.csrfSecret, session.sessionId, 'signout', input.csrf)) {
          return sendHtml(
            reply,
            403,
            messageScreen('This form cannot be accepted', ['Sign out from a page of this site.']),
          );
        }
        await endWebSession(ctx, session.sessionId);
        request.log.info({ userId: session.user._id }, 'web session ended');
      }
      return reply
        .header('set-cookie', clearedSessionCookie(secureCookie))
        .header('cache-control', 'no-store')
        .redirect(safeReturnTo(input.return_to), 302);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: STYLESHEET_PATH,
    handler: async ({ reply }) =>
      reply
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=86400')
        .type('text/css; charset=utf-8')
        .send(SCREEN_CSS),
  });
}
