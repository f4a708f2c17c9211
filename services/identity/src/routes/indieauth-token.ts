// The machine side of IndieAuth: code redemption (token and identity-only), token verification,
// RFC 7662-style introspection and revocation, and the server metadata document. Errors are OAuth
// JSON `{error, error_description}`; nothing here is ever cached.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@murmur/core';
import { bearerToken, busHeaders, defineRoute } from '@murmur/http';
import {
  redeemForIdentity,
  redeemForToken,
  SCREEN_PATH,
  serverMetadata,
  type Redemption,
} from '../domain/authorization.js';
import type { IdentityContext } from '../domain/context.js';
import { describeToken, introspectToken, revokeAnyToken } from '../domain/indieauth-tokens.js';
import { oauthParam, requiredOauthParam } from './params.js';
import {
  identitySchema,
  indieAuthTokenInfoSchema,
  introspectionSchema,
  serverMetadataSchema,
  tokenResponseSchema,
} from '../shapes.js';

const REQUIRED_FOR_REDEMPTION = ['code', 'client_id', 'redirect_uri'] as const;

const redemptionShape = {
  grant_type: oauthParam(),
  code: oauthParam(),
  client_id: oauthParam(),
  redirect_uri: oauthParam(),
  code_verifier: oauthParam(),
};
type RedemptionInput = { [K in keyof typeof redemptionShape]?: string | undefined };

/**
 * The parameters a redemption needs, each named when missing. Another grant_type is left for the
 * route to refuse as `unsupported_grant_type`: that error wins over a missing parameter.
 */
function requireRedemption(input: RedemptionInput, ctx: z.RefinementCtx): void {
  if (!grantTypeSupported(input.grant_type)) return;
  for (const name of REQUIRED_FOR_REDEMPTION) {
    if (input[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is required' });
  }
}

function grantTypeSupported(grantType: string | undefined): boolean {
  return grantType === undefined || grantType === 'authorization_code';
}

const redemptionInput = z.object(redemptionShape).superRefine(requireRedemption);

/** The token endpoint also revokes (`action=revoke&token=…`), as older clients expect. */
const tokenEndpointInput = z
  .object({ ...redemptionShape, action: oauthParam(), token: oauthParam() })
  .superRefine((input, ctx) => {
    if (input.action === undefined) return requireRedemption(input, ctx);
    if (input.action !== 'revoke')
      ctx.addIssue({ code: 'custom', path: ['action'], message: 'must be revoke' });
    else if (input.token === undefined)
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'is required' });
  });

const tokenInput = z.object({ token: requiredOauthParam() });

/** The checked parameters as the domain takes them (required ones are present: the schema said so). */
function redemption(input: RedemptionInput): Redemption {
  if (!grantTypeSupported(input.grant_type)) {
    throw badRequest(
      'Only grant_type=authorization_code is supported.',
      'grant_type',
      'unsupported_grant_type',
    );
  }
  return {
    code: input.code!,
    clientId: input.client_id!,
    redirectUri: input.redirect_uri!,
    codeVerifier: input.code_verifier,
  };
}

export function registerIndieAuthTokenRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  // Token responses and their errors must never be stored by a cache (RFC 6749 §5.1).
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/token',
    input: tokenEndpointInput,
    response: { 200: tokenResponseSchema },
    handler: async ({ input, request, reply }) => {
      await ctx.limits.enforce('indieauth-redeem-ip', request.ip);
      if (input.action !== undefined) {
        await revokeAnyToken(ctx, input.token!, busHeaders(request));
        return reply.code(200).send();
      }
      return redeemForToken(ctx, redemption(input), busHeaders(request));
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: SCREEN_PATH,
    input: redemptionInput,
    response: { 200: identitySchema },
    handler: async ({ input, request }) => {
      await ctx.limits.enforce('indieauth-redeem-ip', request.ip);
      return redeemForIdentity(ctx, redemption(input), busHeaders(request));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/indieauth/token',
    response: { 200: indieAuthTokenInfoSchema },
    handler: async ({ request }) => describeToken(ctx, bearerToken(request.headers.authorization)),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/introspect',
    input: tokenInput,
    response: { 200: introspectionSchema },
    handler: async ({ input, request }) =>
      introspectToken(ctx, bearerToken(request.headers.authorization), input.token),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/indieauth/revoke',
    input: tokenInput,
    handler: async ({ input, request, reply }) => {
      await ctx.limits.enforce('indieauth-redeem-ip', request.ip);
      // Always 200, known token or not (RFC 7009 §2.2).
      await revokeAnyToken(ctx, input.token, busHeaders(request));
      return reply.code(200).send();
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/.well-known/oauth-authorization-server',
    response: { 200: serverMetadataSchema },
    handler: async ({ reply }) => {
      reply.header('cache-control', 'public, max-age=3600').removeHeader('pragma');
      return serverMetadata(ctx);
    },
  });
}
