// Presenters of IndieAuth's machine endpoints, in the shapes of shapes.ts: who a person is
// (`me` + `profile`), a token response, a token's description and the server metadata document.
import type { z } from 'zod';
import { SCOPES } from '@murmur/contracts';
import type {
  identitySchema,
  indieAuthTokenInfoSchema,
  introspectionSchema,
  serverMetadataSchema,
  tokenResponseSchema,
} from '../shapes.js';
import type { UserDoc } from '../store/index.js';
import type { ActiveToken } from './active-token.js';
import { indieAuthProfile, meUrl } from './profile.js';

export type IdentityJson = z.input<typeof identitySchema>;
export type TokenResponseJson = z.input<typeof tokenResponseSchema>;
export type TokenInfoJson = z.input<typeof indieAuthTokenInfoSchema>;
export type IntrospectionJson = z.input<typeof introspectionSchema>;
export type ServerMetadataJson = z.input<typeof serverMetadataSchema>;

/** The scope string of a token response: granted words, space-separated. */
export function scopeString(scopes: readonly string[]): string {
  return scopes.join(' ');
}

export function identityJson(user: UserDoc, publicUrl: string): IdentityJson {
  return { me: meUrl(user, publicUrl), profile: indieAuthProfile(user, publicUrl) };
}

/** With an access token, or — for a code approved without any scope — identity alone. */
export function tokenResponseJson(
  user: UserDoc,
  publicUrl: string,
  granted: { accessToken: string; scopes: readonly string[] } | null,
): TokenResponseJson {
  const identity = identityJson(user, publicUrl);
  if (granted === null) return { me: identity.me, scope: '', profile: identity.profile };
  return {
    access_token: granted.accessToken,
    token_type: 'Bearer',
    scope: scopeString(granted.scopes),
    ...identity,
  };
}

export function tokenInfoJson(active: ActiveToken, publicUrl: string): TokenInfoJson {
  return {
    me: meUrl(active.user, publicUrl),
    client_id: active.clientId,
    scope: scopeString(active.scopes),
    profile: indieAuthProfile(active.user, publicUrl),
  };
}

export function introspectionJson(active: ActiveToken | null, publicUrl: string): IntrospectionJson {
  if (!active) return { active: false };
  return {
    active: true,
    me: meUrl(active.user, publicUrl),
    client_id: active.clientId,
    scope: scopeString(active.scopes),
    iat: Math.floor(active.createdAt.getTime() / 1000),
  };
}

export function serverMetadataJson(
  publicUrl: string,
  issuer: string,
  screenPath: string,
  options: { requirePkce: boolean },
): ServerMetadataJson {
  return {
    issuer,
    authorization_endpoint: `${publicUrl}${screenPath}`,
    token_endpoint: `${publicUrl}/indieauth/token`,
    introspection_endpoint: `${publicUrl}/indieauth/introspect`,
    introspection_endpoint_auth_methods_supported: ['Bearer'],
    revocation_endpoint: `${publicUrl}/indieauth/revoke`,
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    // No registered metadata field says "PKCE is required"; this one (named like RFC 8414's
    // require_* fields) does, for clients that look (docs/indieauth.md).
    require_pkce: options.requirePkce,
    authorization_response_iss_parameter_supported: true,
  };
}
