// Response shapes, written once: defineRoute sends results through these, so a field that is not
// listed here can never leak (e.g. an email or hash added to a domain object later), and the domain's
// presenters (domain/*-json.ts) are typed by them, so the two cannot drift apart.
import { z } from 'zod';

export const accountSchema = z.object({
  token: z.string(),
  name: z.string(),
  username: z.string(),
  avatar: z.string(),
  bio: z.string(),
  default_site: z.string(),
  full_name: z.string(),
  fallback_avatar_url: z.string(),
  has_site: z.boolean(),
  plan: z.string(),
  plans: z.array(z.string()),
  is_fullaccess: z.boolean(),
  is_premium: z.boolean(),
  is_using_ai: z.boolean(),
  has_inkwell: z.literal(true),
});

export const accountWithoutTokenSchema = accountSchema.omit({ token: true });

/**
 * The account as its owner reads and edits it (GET and PATCH /account/me, beyond the interface): the
 * account object, without its token, plus the user's other profiles (rel="me"), in their order.
 */
export const ownAccountSchema = accountWithoutTokenSchema.extend({ links: z.array(z.string()) });

export const emptySchema = z.object({});

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  full_name: z.string(),
  bio: z.string(),
  avatar: z.string(),
  links: z.array(z.string()),
  plan: z.string(),
  plans: z.array(z.string()),
  apple_linked: z.boolean(),
  created_at: z.string(),
});

export const createdUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  token: z.string(),
});

export const issuedTokenSchema = z.object({ id: z.number().int(), token: z.string(), label: z.string() });

export const tokenInfoSchema = z.object({
  id: z.number().int(),
  label: z.string(),
  kind: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

export const appSchema = z.object({ id: z.number().int(), app_name: z.string(), redirect_url: z.string() });

// IndieAuth (docs/api/identity.md, "IndieAuth").

export const profileSchema = z.object({
  name: z.string(),
  url: z.string(),
  photo: z.string(),
  nickname: z.string(),
});

/** What a code redeemed for identity only proves: who the person is. */
export const identitySchema = z.object({ me: z.string(), profile: profileSchema });

export const tokenResponseSchema = z.union([
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    scope: z.string(),
    me: z.string(),
    profile: profileSchema,
  }),
  z.object({ me: z.string(), scope: z.literal(''), profile: profileSchema }),
]);

export const indieAuthTokenInfoSchema = z.object({
  me: z.string(),
  client_id: z.string(),
  scope: z.string(),
  profile: profileSchema,
});

export const introspectionSchema = z.union([
  z.object({
    active: z.literal(true),
    me: z.string(),
    client_id: z.string(),
    scope: z.string(),
    iat: z.number().int(),
  }),
  z.object({ active: z.literal(false) }),
]);

export const serverMetadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  introspection_endpoint: z.string(),
  introspection_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint: z.string(),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  require_pkce: z.boolean(),
  authorization_response_iss_parameter_supported: z.boolean(),
});
