// The IndieAuth authorization flow (docs/indieauth.md, docs/api/identity.md): validate a request and keep it
// server-side, turn the person's decision into a code, and redeem that code exactly once. Nothing
// here trusts the browser after validation: approval reads client_id, redirect_uri, state, scope and
// the PKCE challenge from the stored request, never from the form.
import { createHash } from 'node:crypto';
import { SCOPES } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, randomToken, sha256Hex, timingSafeEqualHex } from '@murmur/core';
import type { AuthCodeDoc, AuthRequestDoc, UserDoc } from '../store/index.js';
import type { ClientInfo } from './client-info.js';
import type { IdentityContext } from './context.js';
import {
  identityJson,
  serverMetadataJson,
  tokenResponseJson,
  type IdentityJson,
  type ServerMetadataJson,
  type TokenResponseJson,
} from './indieauth-json.js';
import { issueIndieAuthToken, revokeTokensOfCode } from './indieauth-tokens.js';
import {
  isPublished,
  parseClientId,
  parseRedirectUri,
  sameOrigin,
  sameUrl,
  withParams,
} from './indieauth-urls.js';

export const REQUEST_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 10 * 60_000;
export const SCREEN_PATH = '/indieauth/auth';
const MAX_PARAM_LENGTH = 2048;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The query parameters of the authorization screen, as sent (absent → undefined). */
export interface AuthorizationParams {
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  state?: string | undefined;
  response_type?: string | undefined;
  scope?: string | undefined;
  me?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
  inkwell?: string | undefined;
}
const PARAM_NAMES = [
  'client_id',
  'redirect_uri',
  'state',
  'response_type',
  'scope',
  'me',
  'code_challenge',
  'code_challenge_method',
  'inkwell',
] as const;

export type ScreenOutcome =
  /** Nothing about the redirect can be trusted yet: the person sees an error page, never a redirect. */
  | { kind: 'invalid'; message: string }
  /** The redirect is trusted; the client hears about its mistake there. */
  | { kind: 'redirect'; location: string }
  | { kind: 'ready'; requestId: string; request: AuthRequestDoc; client: ClientInfo };

/** The issuer: the metadata's `issuer` and the `iss` of every redirect (they must be equal). */
export function issuer(publicUrl: string): string {
  return `${publicUrl}/`;
}

/** Known scope words in the client's order, once each; unknown words are dropped, not refused. */
export function knownScopes(text: string | undefined): string[] {
  const words = (text ?? '').split(/\s+/).filter((w) => (SCOPES as readonly string[]).includes(w));
  return [...new Set(words)];
}

/** OAuth's error codes at the authorization endpoint (RFC 6749 §4.1.2.1) that this server sends. */
export type AuthorizationErrorCode =
  'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied' | 'server_error';

/**
 * Where an error goes back to the client: its redirect_uri with `error`, `error_description`, the
 * `state` it sent (none when it sent none, or no single usable one) and `iss`. Descriptions are
 * plain ASCII without `"` or `\` (RFC 6749 §4.1.2.1).
 */
export function errorRedirect(
  ctx: IdentityContext,
  redirectUri: string,
  state: string | undefined,
  error: AuthorizationErrorCode,
  description: string,
): string {
  return withParams(redirectUri, {
    error,
    error_description: description,
    state,
    iss: issuer(ctx.config.PUBLIC_URL),
  });
}

/** Scope tokens are NQCHARs (RFC 6749 §3.3): printable ASCII except `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * What is wrong with a request whose client_id and redirect_uri are already checked, or null. Each
 * answer goes back to the client's redirect_uri (docs/api/identity.md, "GET /indieauth/auth").
 */
function requestProblem(
  params: AuthorizationParams,
  repeated: readonly string[],
  requirePkce: boolean,
): { error: AuthorizationErrorCode; description: string } | null {
  const twice = PARAM_NAMES.find((name) => repeated.includes(name));
  if (twice)
    return { error: 'invalid_request', description: `The ${twice} parameter was sent more than once.` };
  const tooLong = PARAM_NAMES.find((name) => (params[name]?.length ?? 0) > MAX_PARAM_LENGTH);
  if (tooLong) {
    return {
      error: 'invalid_request',
      description: `The ${tooLong} parameter is longer than ${MAX_PARAM_LENGTH} characters.`,
    };
  }
  const responseType = params.response_type ?? 'code';
  if (responseType !== 'code' && responseType !== 'id') {
    return { error: 'unsupported_response_type', description: 'response_type must be code (or id).' };
  }
  const scopeWords = (params.scope ?? '').split(/\s+/).filter((w) => w !== '');
  if (scopeWords.some((w) => !SCOPE_TOKEN.test(w))) {
    return {
      error: 'invalid_scope',
      description: 'scope must be words of printable ASCII (no quotes or backslashes) separated by spaces.',
    };
  }
  const challenge = params.code_challenge;
  const method = params.code_challenge_method;
  if (challenge !== undefined || method !== undefined) {
    if (method !== 'S256') {
      return { error: 'invalid_request', description: 'code_challenge_method must be S256.' };
    }
    if (challenge === undefined || !PKCE_CHALLENGE.test(challenge)) {
      return { error: 'invalid_request', description: 'code_challenge must be 43 base64url characters.' };
    }
  } else if (requirePkce) {
    return {
      error: 'invalid_request',
      description: 'This server requires PKCE: send code_challenge and code_challenge_method=S256.',
    };
  }
  return null;
}

/**
 * Checks an authorization request and keeps it server-side. `repeated` names the parameters sent more
 * than once. Until client_id and redirect_uri are checked — the redirect_uri on the client_id's own
 * scheme, host and port, or published by the client (IndieAuth "Redirect URL") — a problem is an
 * error page: redirecting then would make this server an open redirector. From then on every problem
 * goes back to the client's redirect_uri as an OAuth error (RFC 6749 §4.1.2.1), or the app would wait
 * forever.
 */
export async function openAuthorizationRequest(
  ctx: IdentityContext,
  params: AuthorizationParams,
  repeated: readonly string[] = [],
): Promise<ScreenOutcome> {
  for (const name of ['client_id', 'redirect_uri'] as const) {
    if (repeated.includes(name)) {
      return { kind: 'invalid', message: `The ${name} parameter was sent more than once.` };
    }
  }
  const clientId = parseClientId(params.client_id);
  if (!clientId.ok) return { kind: 'invalid', message: clientId.reason };
  const redirect = parseRedirectUri(params.redirect_uri);
  if (!redirect.ok) return { kind: 'invalid', message: redirect.reason };

  const client = await ctx.clientInfo.load(clientId.url);
  if (!sameOrigin(redirect.url, clientId.url) && !isPublished(params.redirect_uri!, client.redirectUris)) {
    return {
      kind: 'invalid',
      message:
        `The redirect_uri is not on the client's host and the client does not publish it, ` +
        `so this server will not send anything there.`,
    };
  }

  const redirectUri = redirect.url.href;
  // A state sent twice, or too long to send back, is not echoed: there is no one exact value to return.
  const state =
    repeated.includes('state') || (params.state?.length ?? 0) > MAX_PARAM_LENGTH ? undefined : params.state;
  const problem = requestProblem(params, repeated, ctx.config.INDIEAUTH_REQUIRE_PKCE);
  if (problem) {
    return {
      kind: 'redirect',
      location: errorRedirect(ctx, redirectUri, state, problem.error, problem.description),
    };
  }

  const responseType = params.response_type === 'id' ? 'id' : 'code';
  const requestId = randomToken();
  const now = ctx.clock.now();
  const request: AuthRequestDoc = {
    _id: sha256Hex(requestId),
    clientId: clientId.url.href,
    redirectUri,
    state: params.state ?? null,
    responseType,
    scopes: responseType === 'id' ? [] : knownScopes(params.scope),
    codeChallenge: params.code_challenge ?? null,
    inkwell: params.inkwell === '1' && responseType === 'code',
    me: params.me ?? null,
    screenPath: screenPath(params),
    createdAt: now,
    expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
  };
  try {
    await ctx.store.insertAuthRequest(request);
  } catch (err) {
    // The client is checked and waiting: it hears of the failure rather than waiting forever.
    ctx.logger.error({ err, clientId: request.clientId }, 'indieauth request not stored');
    return {
      kind: 'redirect',
      location: errorRedirect(
        ctx,
        redirectUri,
        state,
        'server_error',
        'The server could not keep this request. Try again in a moment.',
      ),
    };
  }
  return { kind: 'ready', requestId, request, client };
}

/** The screen's path with the parameters it was opened with: where an emailed sign-in returns. */
function screenPath(params: AuthorizationParams): string {
  const query = new URLSearchParams();
  for (const name of PARAM_NAMES) {
    const value = params[name];
    if (value !== undefined) query.append(name, value);
  }
  return `${SCREEN_PATH}?${query}`;
}

export function pendingRequest(ctx: IdentityContext, requestId: string): Promise<AuthRequestDoc | null> {
  return ctx.store.liveAuthRequest(sha256Hex(requestId), ctx.clock.now());
}

/** The scopes a request will grant: the ticked ones it asked for (all when none were sent), plus reader access. */
export function grantedScopes(request: AuthRequestDoc, ticked: readonly string[] | undefined): string[] {
  if (request.responseType === 'id') return [];
  const scopes =
    ticked === undefined ? [...request.scopes] : request.scopes.filter((s) => ticked.includes(s));
  if (request.inkwell && !scopes.includes('read')) scopes.push('read');
  return scopes;
}

/**
 * The person's answer. Returns where to send the browser, or null when the request is gone (expired,
 * or already decided in another tab). One request yields at most one code.
 */
export async function decideAuthorization(
  ctx: IdentityContext,
  requestId: string,
  user: UserDoc,
  decision: { deny: boolean; ticked: readonly string[] | undefined },
): Promise<string | null> {
  const request = await pendingRequest(ctx, requestId);
  if (!request || !(await ctx.store.takeAuthRequest(request._id))) return null;
  const state = request.state ?? undefined;
  if (decision.deny) {
    return errorRedirect(
      ctx,
      request.redirectUri,
      state,
      'access_denied',
      'The person declined to sign in to this app.',
    );
  }
  const code = randomToken();
  const now = ctx.clock.now();
  try {
    await ctx.store.insertAuthCode({
      _id: sha256Hex(code),
      userId: user._id,
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      scopes: grantedScopes(request, decision.ticked),
      codeChallenge: request.codeChallenge,
      inkwell: request.inkwell,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      usedAt: null,
      replayedAt: null,
      tokenHash: null,
    });
  } catch (err) {
    // The request is used up and the client is waiting: it hears of the failure (and may start again).
    ctx.logger.error({ err, userId: user._id, clientId: request.clientId }, 'indieauth code not stored');
    return errorRedirect(
      ctx,
      request.redirectUri,
      state,
      'server_error',
      'The server could not complete the sign-in. Start again in a moment.',
    );
  }
  ctx.logger.info({ userId: user._id, clientId: request.clientId }, 'indieauth code issued');
  return withParams(request.redirectUri, { code, state, iss: issuer(ctx.config.PUBLIC_URL) });
}

export interface Redemption {
  code: string;
  clientId: string;
  redirectUri: string;
  codeVerifier: string | undefined;
}

const invalidGrant = (message: string) => badRequest(message, 'code', 'invalid_grant');

/**
 * Uses up a code and returns what it grants. The code is marked used before anything is compared, so
 * a failed redemption burns it too; a second use also revokes whatever the first one obtained.
 */
export async function redeemCode(
  ctx: IdentityContext,
  input: Redemption,
  headers: BusHeaders,
): Promise<{ code: AuthCodeDoc; user: UserDoc }> {
  const hash = sha256Hex(input.code);
  const now = ctx.clock.now();
  const code = await ctx.store.claimAuthCode(hash, now);
  if (!code) {
    const replayed = await ctx.store.markAuthCodeReplayed(hash, now);
    if (!replayed) throw invalidGrant('The authorization code is not valid.');
    await revokeTokensOfCode(ctx, hash, headers);
    ctx.logger.warn({ userId: replayed.userId, clientId: replayed.clientId }, 'indieauth code used twice');
    throw invalidGrant('The authorization code has already been used.');
  }
  if (code.expiresAt.getTime() <= now.getTime()) throw invalidGrant('The authorization code has expired.');
  if (!sameUrl(input.clientId, code.clientId)) {
    throw invalidGrant('client_id does not match the authorization request.');
  }
  if (!sameUrl(input.redirectUri, code.redirectUri)) {
    throw invalidGrant('redirect_uri does not match the authorization request.');
  }
  checkVerifier(code.codeChallenge, input.codeVerifier);
  const user = await ctx.store.userById(code.userId);
  if (!user) throw invalidGrant('The authorization code is not valid.');
  return { code, user };
}

function checkVerifier(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined)
      throw invalidGrant('code_verifier was sent, but the request had no code_challenge.');
    return;
  }
  if (verifier === undefined) throw invalidGrant('code_verifier is required for this code.');
  if (!PKCE_VERIFIER.test(verifier)) throw invalidGrant('code_verifier is malformed.');
  const computed = createHash('sha256').update(verifier).digest('base64url');
  if (!timingSafeEqualHex(sha256Hex(computed), sha256Hex(challenge))) {
    throw invalidGrant('code_verifier does not match the code_challenge.');
  }
}

/** `POST /indieauth/token`: a code with scopes becomes an access token; one without proves identity only. */
export async function redeemForToken(
  ctx: IdentityContext,
  input: Redemption,
  headers: BusHeaders,
): Promise<TokenResponseJson> {
  const { code, user } = await redeemCode(ctx, input, headers);
  // A code approved without any scope proves who the person is and grants nothing else.
  if (code.scopes.length === 0) return tokenResponseJson(user, ctx.config.PUBLIC_URL, null);
  const accessToken = await issueIndieAuthToken(ctx, code);
  return tokenResponseJson(user, ctx.config.PUBLIC_URL, { accessToken, scopes: code.scopes });
}

/** `POST /indieauth/auth`: the code proves who the person is; never an access token. */
export async function redeemForIdentity(
  ctx: IdentityContext,
  input: Redemption,
  headers: BusHeaders,
): Promise<IdentityJson> {
  const { user } = await redeemCode(ctx, input, headers);
  return identityJson(user, ctx.config.PUBLIC_URL);
}

export function serverMetadata(ctx: IdentityContext): ServerMetadataJson {
  return serverMetadataJson(ctx.config.PUBLIC_URL, issuer(ctx.config.PUBLIC_URL), SCREEN_PATH, {
    requirePkce: ctx.config.INDIEAUTH_REQUIRE_PKCE,
  });
}
