// The machine side of IndieAuth: code redemption (token and identity-only), token verification,
// RFC 7662-style introspection and revocation, and the server metadata document. Errors are OAuth
// JSON `{error, error_description}`; nothing here is ever cached.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SCOPES } from '@murmur/contracts';
import {
  badRequest,
  bearerToken,
  busHeaders,
  defineRoute,
  unauthorized,
  type ParamRecord,
} from '@murmur/platform';
import { issuer, redeemCode, SCREEN_PATH, type Redemption } from '../domain/authorization.js';
import type { IdentityContext } from '../domain/context.js';
import { activeToken, issueIndieAuthToken, revokeAnyToken, scopeString } from '../domain/indieauth-tokens.js';
import { enforceLimit } from '../domain/limits.js';
import { indieAuthProfile, meUrl } from '../domain/profile.js';
import { rawParam } from './params.js';

const profileSchema = z.object({
  name: z.string(),
  url: z.string(),
  photo: z.string(),
  nickname: z.string(),
});
const identitySchema = z.object({ me: z.string(), profile: profileSchema });
const tokenResponseSchema = z.union([
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    scope: z.string(),
    me: z.string(),
    profile: profileSchema,
  }),
  z.object({ me: z.string(), scope: z.literal(''), profile: profileSchema }),
]);
const tokenInfoSchema = z.object({
  me: z.string(),
  client_id: z.string(),
  scope: z.string(),
  profile: profileSchema,
});
const introspectionSchema = z.union([
  z.object({
    active: z.literal(true),
    me: z.string(),
    client_id: z.string(),
    scope: z.string(),
    iat: z.number().int(),
  }),
  z.object({ active: z.literal(false) }),
]);

const REDEEM_LIMIT_MESSAGE = 'Too many requests. Try again in a minute.';

export function registerIndieAuthTokenRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const base = ctx.config.PUBLIC_URL;
  // Token responses and their errors must never be stored by a cache (RFC 6749 §5.1).
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/token',
    response: { 200: tokenResponseSchema },
    handler: async ({ input, request, reply }) => {
      await enforceLimit(ctx.limits.indieAuthRedeemPerIp, request.ip, REDEEM_LIMIT_MESSAGE);
      const action = rawParam(input, 'action');
      if (action !== undefined) {
        if (action !== 'revoke') throw badRequest('action must be revoke.', 'action');
        await revokeAnyToken(ctx, requiredParam(input, 'token'), busHeaders(request));
        return reply.code(200).send();
      }
      const { code, user } = await redeemCode(ctx, redemption(input), busHeaders(request));
      const identity = { me: meUrl(user, base), profile: indieAuthProfile(user, base) };
      // A code approved without any scope proves who the person is and grants nothing else.
      if (code.scopes.length === 0) return { me: identity.me, scope: '' as const, profile: identity.profile };
      const accessToken = await issueIndieAuthToken(ctx, code);
      return {
        access_token: accessToken,
        token_type: 'Bearer' as const,
        scope: scopeString(code.scopes),
        ...identity,
      };
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: SCREEN_PATH,
    response: { 200: identitySchema },
    handler: async ({ input, request }) => {
      await enforceLimit(ctx.limits.indieAuthRedeemPerIp, request.ip, REDEEM_LIMIT_MESSAGE);
      const { user } = await redeemCode(ctx, redemption(input), busHeaders(request));
      return { me: meUrl(user, base), profile: indieAuthProfile(user, base) };
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/indieauth/token',
    response: { 200: tokenInfoSchema },
    handler: async ({ request }) => {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) throw unauthorized('A Bearer token is required.', 'invalid_token');
      const active = await activeToken(ctx, token);
      if (!active) throw unauthorized('The token is not valid.', 'invalid_token');
      return {
        me: meUrl(active.user, base),
        client_id: active.clientId,
        scope: scopeString(active.scopes),
        profile: indieAuthProfile(active.user, base),
      };
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/introspect',
    response: { 200: introspectionSchema },
    handler: async ({ input, request }) => {
      // Only holders of a live token of this service may ask, so it is no oracle for strangers.
      const caller = bearerToken(request.headers.authorization);
      if (caller === undefined || !(await activeToken(ctx, caller))) {
        throw unauthorized('Introspection needs a valid Bearer token.', 'invalid_token');
      }
      const active = await activeToken(ctx, requiredParam(input, 'token'));
      if (!active) return { active: false as const };
      return {
        active: true as const,
        me: meUrl(active.user, base),
        client_id: active.clientId,
        scope: scopeString(active.scopes),
        iat: Math.floor(active.createdAt.getTime() / 1000),
      };
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/revoke',
    handler: async ({ input, request, reply }) => {
      await enforceLimit(ctx.limits.indieAuthRedeemPerIp, request.ip, REDEEM_LIMIT_MESSAGE);
      // Always 200, known token or not (RFC 7009 §2.2).
      await revokeAnyToken(ctx, requiredParam(input, 'token'), busHeaders(request));
      return reply.code(200).send();
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/.well-known/oauth-authorization-server',
    handler: async ({ reply }) => {
      reply.header('cache-control', 'public, max-age=3600').removeHeader('pragma');
      return {
        issuer: issuer(base),
        authorization_endpoint: `${base}${SCREEN_PATH}`,
        token_endpoint: `${base}/indieauth/token`,
        introspection_endpoint: `${base}/indieauth/introspect`,
        introspection_endpoint_auth_methods_supported: ['Bearer'],
        revocation_endpoint: `${base}/indieauth/revoke`,
        revocation_endpoint_auth_methods_supported: ['none'],
        scopes_supported: [...SCOPES],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      };
    },
  });
}

function requiredParam(input: ParamRecord, name: string): string {
  const value = rawParam(input, name);
  if (value === undefined) throw badRequest(`${name} is required.`, name);
  return value;
}

/** The redemption parameters, checked in the order the errors should surface. */
function redemption(input: ParamRecord): Redemption {
  const grantType = rawParam(input, 'grant_type');
  if (grantType !== undefined && grantType !== 'authorization_code') {
    throw badRequest(
      'Only grant_type=authorization_code is supported.',
      'grant_type',
      'unsupported_grant_type',
    );
  }
  return {
    code: requiredParam(input, 'code'),
    clientId: requiredParam(input, 'client_id'),
    redirectUri: requiredParam(input, 'redirect_uri'),
    codeVerifier: rawParam(input, 'code_verifier'),
  };
}
