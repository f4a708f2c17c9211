// Signing a browser in with an emailed link. Following the link only shows a confirmation page;
// the sign-in itself is a POST from that page. Otherwise anyone could sign a victim's browser into
// the attacker's own account by making it load the attacker's link (login CSRF), and the victim
// would then approve IndieAuth requests or type data as the attacker.
//
// The POST proves it came from our page with a double-submit pair: the page sets a random cookie
// (HttpOnly, SameSite=Strict, on this path only) and its form carries an HMAC of that cookie. A
// cross-site form has neither the cookie (SameSite) nor a way to read the HMAC (the page cannot be
// framed or read across origins).
import { randomToken, sha256Hex } from '@murmur/core';
import type { IdentityContext } from './context.js';
import { csrfToken, csrfTokenValid } from './csrf.js';
import { startWebSession } from './sessions.js';
import { consumeSigninToken } from './signin.js';

export const CONFIRM_COOKIE = 'murmur_signin';
export const WEB_SIGNIN_PATH = '/account/signin/web';
const PURPOSE = 'signin-web';

/** Whether the link's token would still sign in (it is not used up by looking). */
export async function signinLinkLive(ctx: IdentityContext, token: string): Promise<boolean> {
  return (await ctx.store.liveSigninToken(sha256Hex(token), 'signin', ctx.clock.now())) !== null;
}

/** A fresh confirmation: the cookie value for the browser and the form field that matches it. */
export function newConfirmation(ctx: IdentityContext): { cookie: string; csrf: string } {
  const cookie = randomToken();
  return { cookie, csrf: csrfToken(ctx.csrfSecret, cookie, PURPOSE) };
}

export function confirmationValid(
  ctx: IdentityContext,
  cookie: string | undefined,
  csrf: string | undefined,
) {
  return cookie !== undefined && cookie !== '' && csrfTokenValid(ctx.csrfSecret, cookie, PURPOSE, csrf);
}

/** Uses up the token and starts a session; null when the token is not a live sign-in token. */
export async function signInWithLink(
  ctx: IdentityContext,
  token: string,
): Promise<{ userId: number; sessionId: string; expiresAt: Date } | null> {
  const signin = await consumeSigninToken(ctx, token);
  if (!signin) return null;
  const session = await startWebSession(ctx, signin.user._id);
  return { userId: signin.user._id, ...session };
}

export function confirmCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const attributes = [`Max-Age=${maxAgeSeconds}`, `Path=${WEB_SIGNIN_PATH}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) attributes.push('Secure');
  return `${CONFIRM_COOKIE}=${value}; ${attributes.join('; ')}`;
}
