// Sign in with Apple (docs/api/identity.md, "POST /account/apple"). The identity token is an RS256 JWT that
// must verify against Apple's published keys; its `sub` then names the Apple account. Three outcomes:
// linked → sign-in token; unknown without username → a sign-up token (useless at /account/verify, it
// only tells the app to ask for a username); unknown with a free username → new account + sign-in token.
// A new account gets an email address only when Apple vouches for it inside the signed token: an
// address in the request body is anybody's word, and an account holding it would receive that
// person's sign-in links (docs/security.md).
import { errors as joseErrors, jwtVerify, type JSONWebKeySet } from 'jose';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, serviceUnavailable, unauthorized } from '@murmur/core';
import { FETCH_LIMITS, outboundPolicyFromConfig, safeFetch } from '@murmur/fetch';
import type { IdentityConfig } from '../config.js';
import type { UserDoc } from '../store/index.js';
import { AppleKeysUnavailableError } from './apple-keys.js';
import type { IdentityContext } from './context.js';
import { parseEmail } from './emails.js';
import { issueSigninToken } from './signin.js';
import { normaliseUsername, usernameProblem } from './usernames.js';
import { AccountTakenError, createUser } from './users.js';

export const APPLE_ISSUER = 'https://appleid.apple.com';

export interface AppleSigninInput {
  identityToken: string;
  userId: string;
  fullName?: string;
  username?: string;
  appName?: string;
}

export interface AppleSigninResult {
  username: string;
  token: string;
}

/** Loads Apple's JWKS through the safe fetcher (docs/security.md: 5 s, 64 KiB, 2 redirects). */
export function appleJwksLoader(config: IdentityConfig): () => Promise<JSONWebKeySet> {
  const allow = outboundPolicyFromConfig(config);
  return async () => {
    const res = await safeFetch(config.APPLE_JWKS_URL, {
      ...FETCH_LIMITS.jwks,
      accept: 'application/json',
      allow,
      baseUrl: config.PUBLIC_URL,
    });
    if (res.status !== 200) throw new Error(`the Apple JWKS URL answered ${res.status}`);
    const jwks = JSON.parse(res.body.toString('utf8')) as unknown;
    if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as { keys?: unknown }).keys)) {
      throw new Error('the Apple JWKS URL did not return a key set');
    }
    return jwks as JSONWebKeySet;
  };
}

export interface AppleIdentity {
  sub: string;
  /** The token's `email`, only when the token also says Apple verified it. */
  verifiedEmail: string | null;
}

/**
 * Apple sends `email_verified` as a boolean in some tokens and as the string "true"/"false" in
 * others; anything but those two spellings of true leaves the address unverified.
 */
export function verifiedEmailOf(claims: Record<string, unknown>): string | null {
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return verified && typeof claims.email === 'string' ? claims.email : null;
}

/** The verified identity. Every failure of the token itself is a 401 naming what was wrong. */
export async function verifyAppleIdentityToken(
  ctx: IdentityContext,
  identityToken: string,
  userId: string,
): Promise<AppleIdentity> {
  let sub: string | undefined;
  let verifiedEmail: string | null = null;
  try {
    const { payload } = await jwtVerify(identityToken, ctx.appleKeys.resolve, {
      algorithms: ['RS256'],
      issuer: APPLE_ISSUER,
      audience: ctx.config.APPLE_CLIENT_IDS,
      requiredClaims: ['exp', 'sub'],
      currentDate: ctx.clock.now(),
    });
    sub = payload.sub;
    verifiedEmail = verifiedEmailOf(payload);
  } catch (err) {
    if (err instanceof AppleKeysUnavailableError) {
      ctx.logger.warn({ err: err.cause }, 'Apple JWKS unavailable');
      throw serviceUnavailable('Sign in with Apple is unavailable right now. Try again later.');
    }
    if (err instanceof joseErrors.JOSEError)
      throw unauthorized(`identity_token is not valid: ${err.message}.`);
    throw err;
  }
  if (sub !== userId) throw unauthorized('user_id does not match the identity_token.');
  return { sub, verifiedEmail };
}

export async function signInWithApple(
  ctx: IdentityContext,
  input: AppleSigninInput,
  headers: BusHeaders,
): Promise<AppleSigninResult> {
  if (ctx.config.APPLE_CLIENT_IDS.length === 0) {
    throw badRequest('Sign in with Apple is not configured on this server (APPLE_CLIENT_IDS is empty).');
  }
  const { sub, verifiedEmail } = await verifyAppleIdentityToken(ctx, input.identityToken, input.userId);
  const appName = input.appName ?? null;

  const linked = await ctx.store.userByAppleSub(sub);
  if (linked) return signinFor(ctx, linked, appName);

  if (input.username === undefined || input.username.trim() === '') {
    const token = await issueSigninToken(ctx, { purpose: 'signup', appleSub: sub, appName });
    return { username: '', token };
  }

  const username = normaliseUsername(input.username);
  const problem = usernameProblem(username);
  if (problem) throw badRequest(problem, 'username');
  const user = await createAppleUser(
    ctx,
    { username, sub, email: verifiedEmail, fullName: input.fullName },
    headers,
  );
  return signinFor(ctx, user, appName);
}

async function signinFor(
  ctx: IdentityContext,
  user: UserDoc,
  appName: string | null,
): Promise<AppleSigninResult> {
  const token = await issueSigninToken(ctx, { purpose: 'signin', userId: user._id, appName });
  return { username: user.username, token };
}

async function createAppleUser(
  ctx: IdentityContext,
  fields: { username: string; sub: string; email: string | null; fullName: string | undefined },
  headers: BusHeaders,
): Promise<UserDoc> {
  const fullName = fields.fullName?.trim() ?? '';
  // The verified email is a courtesy Apple passes along; a malformed one, or one another account
  // already uses, is dropped rather than failing the sign-up (it would not link the accounts).
  const parsed = fields.email === null ? null : parseEmail(fields.email);
  const email = parsed !== null && !(await ctx.store.userByEmail(parsed)) ? parsed : undefined;
  const base = { username: fields.username, appleSub: fields.sub, name: fullName, fullName };
  try {
    return await createUser(ctx, email === undefined ? base : { ...base, email }, headers);
  } catch (err) {
    if (!(err instanceof AccountTakenError)) throw err;
    if (err.field === 'username') throw badRequest(err.message, 'username');
    if (err.field === 'email') return createUser(ctx, base, headers);
    // Two sign-ups for one Apple ID raced; the other one won.
    const linked = await ctx.store.userByAppleSub(fields.sub);
    if (linked) return linked;
    throw err;
  }
}
