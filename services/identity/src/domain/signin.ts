// Emailed sign-in (docs/api/identity.md, "Signing in by email"): a sign-in token is mailed as a link, exchanged
// once at /account/verify for an app token. The request only enqueues a job; the token is created
// inside the job, so the raw token never sits in the store (the job payload holds ids only) and the
// HTTP answer does not depend on SMTP.
import { randomToken, sha256Hex, unauthorized } from '@murmur/core';
import { enqueueJob } from '@murmur/jobs';
import { signinEmail } from '../mail/signin-email.js';
import type { SigninPurpose, UserDoc } from '../store/index.js';
import { accountObject, type AccountWithTokenJson } from './account-json.js';
import type { SigninTarget } from './apps.js';
import type { IdentityContext } from './context.js';
import { signinEmailSendJob, type SigninEmailJob } from './jobs.js';
import { enforceSigninLimits } from './limits.js';
import { activeAppToken, issueAppToken, recordTokenUse } from './tokens.js';

export const INVALID_TOKEN_MESSAGE = 'Token is not valid.';

export interface SigninRequest {
  email: string;
  /** The client address asking: the per-IP allowance is counted on it. */
  ip: string;
  target: SigninTarget;
  isMobile: boolean;
  /** A same-origin path the web sign-in returns to (the IndieAuth screen). */
  returnTo?: string | null;
}

/**
 * Counts the request against the sign-in allowances (429 beyond them), then answers the same way
 * whether or not the address has an account: only the mail differs.
 */
export async function requestSigninEmail(ctx: IdentityContext, request: SigninRequest): Promise<void> {
  await enforceSigninLimits(ctx.limits, request.ip, request.email);
  const user = await ctx.store.userByEmail(request.email);
  if (!user) return;
  await enqueueJob(ctx.jobs, signinEmailSendJob, {
    userId: user._id,
    ...request.target,
    isMobile: request.isMobile,
    returnTo: request.returnTo ?? null,
  });
}

export async function sendSigninEmail(ctx: IdentityContext, job: SigninEmailJob): Promise<void> {
  const user = await ctx.store.userById(job.userId);
  if (!user?.email) return;
  const token = await issueSigninToken(ctx, { purpose: 'signin', userId: user._id, appName: job.appName });
  const link = signinLink(ctx.config.PUBLIC_URL, job.redirectUrl, token, job.returnTo ?? null);
  const messageId = await ctx.mailer.send(
    signinEmail(user.email, link, job.isMobile, ctx.config.SIGNIN_TOKEN_TTL_MINUTES),
  );
  ctx.logger.info({ userId: user._id, mobile: job.isMobile, messageId }, 'sign-in email sent');
}

/**
 * `redirect_url` plus `token=…` (kept before any fragment), or the web sign-in page — with
 * `return_to` when the sign-in started on a page of ours (the IndieAuth screen).
 */
export function signinLink(
  publicUrl: string,
  redirectUrl: string | null,
  token: string,
  returnTo: string | null = null,
): string {
  if (redirectUrl === null) {
    const back = returnTo === null ? '' : `&return_to=${encodeURIComponent(returnTo)}`;
    return `${publicUrl}/account/signin/web?token=${token}${back}`;
  }
  const hashAt = redirectUrl.indexOf('#');
  const base = hashAt === -1 ? redirectUrl : redirectUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : redirectUrl.slice(hashAt);
  return `${base}${base.includes('?') ? '&' : '?'}token=${token}${fragment}`;
}

export async function issueSigninToken(
  ctx: IdentityContext,
  fields: { purpose: SigninPurpose; userId?: number; appName?: string | null; appleSub?: string },
): Promise<string> {
  const token = randomToken();
  const now = ctx.clock.now();
  await ctx.store.insertSigninToken({
    _id: sha256Hex(token),
    purpose: fields.purpose,
    userId: fields.userId ?? null,
    appName: fields.appName ?? null,
    appleSub: fields.appleSub ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.SIGNIN_TOKEN_TTL_MINUTES * 60_000),
    usedAt: null,
  });
  return token;
}

/** Uses up a live sign-in token and returns its account; null when the token is not one. */
export async function consumeSigninToken(
  ctx: IdentityContext,
  token: string,
): Promise<{ user: UserDoc; appName: string | null } | null> {
  const signin = await ctx.store.consumeSigninToken(sha256Hex(token), 'signin', ctx.clock.now());
  if (!signin || signin.userId === null) return null;
  const user = await ctx.store.userById(signin.userId);
  return user ? { user, appName: signin.appName } : null;
}

/**
 * /account/verify: a sign-in token becomes a new app token (labelled with its app, else `web`);
 * an app token is answered with itself. Anything else — unknown, used, expired, revoked, a sign-up token — is 401.
 */
export async function exchangeToken(ctx: IdentityContext, token: string): Promise<AccountWithTokenJson> {
  const { user, token: appToken } = await appTokenFor(ctx, token);
  return { token: appToken, ...accountObject(user, ctx.config.PUBLIC_URL, await ctx.usingAi()) };
}

async function appTokenFor(ctx: IdentityContext, token: string): Promise<{ user: UserDoc; token: string }> {
  const signin = await consumeSigninToken(ctx, token);
  if (signin) {
    const issued = await issueAppToken(ctx, signin.user._id, signin.appName ?? 'web');
    ctx.logger.info({ userId: signin.user._id, tokenId: issued.id }, 'sign-in token exchanged');
    return { user: signin.user, token: issued.token };
  }
  const app = await activeAppToken(ctx, token);
  if (!app) throw unauthorized(INVALID_TOKEN_MESSAGE);
  await recordTokenUse(ctx, app.token);
  return { user: app.user, token };
}
