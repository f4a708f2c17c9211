// What identity answers on the bus and the events it publishes.
import { z } from 'zod';
import { defineEvent, defineRequest } from './bus.js';

export const userIdSchema = z.number().int().positive();

/** IndieAuth scopes a token may carry; `channels` lets a Microsub client create, rename, order and delete channels. */
/**
 * Scopes an IndieAuth token may carry. `delete`, `media` and `draft` are Micropub's (IndieAuth spec,
 * "Micropub scopes"): deleting and undeleting posts, uploading to the media endpoint, posting drafts only.
 */
export const SCOPES = [
  'profile',
  'read',
  'follow',
  'create',
  'update',
  'channels',
  'delete',
  'media',
  'draft',
] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

/** A user as other services may see it (the bus is internal; email is included for mailers). */
export const publicUserSchema = z.object({
  id: userIdSchema,
  username: z.string(),
  email: z.string(),
  name: z.string(),
  fullName: z.string(),
  avatar: z.string(),
  bio: z.string(),
  /**
   * The user's other profiles (rel="me" links on their profile and site pages): absolute http(s)
   * URLs, in the order the user gave them. Absent from events written before it existed.
   */
  links: z.array(z.string()).default([]),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const tokenKindSchema = z.enum(['app', 'indieauth']);
export type TokenKind = z.infer<typeof tokenKindSchema>;

export const tokenVerify = defineRequest(
  'identity',
  'token',
  'verify',
  z.object({ token: z.string().min(1).max(512) }),
  z.discriminatedUnion('active', [
    z.object({
      active: z.literal(true),
      userId: userIdSchema,
      username: z.string(),
      kind: tokenKindSchema,
      /** Granted scopes; app tokens carry every scope. */
      scopes: z.array(z.string()),
      clientId: z.string(),
      /** SHA-256 (hex) of the token: the key of revocation events and caches. */
      tokenHash: z.string(),
    }),
    z.object({ active: z.literal(false) }),
  ]),
);

export const credentialsVerify = defineRequest(
  'identity',
  'credentials',
  'verify',
  z.object({ login: z.string().min(1).max(254), token: z.string().min(1).max(512) }),
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), userId: userIdSchema, username: z.string() }),
    z.object({ ok: z.literal(false) }),
  ]),
);

export const usersGet = defineRequest(
  'identity',
  'users',
  'get',
  z.union([z.object({ id: userIdSchema }), z.object({ username: z.string().min(1).max(64) })]),
  z.object({ user: publicUserSchema.nullable() }),
);

export const userCreated = defineEvent('identity', 'user', 'created', z.object({ user: publicUserSchema }));

export const tokenRevoked = defineEvent(
  'identity',
  'token',
  'revoked',
  z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/), userId: userIdSchema }),
);

/**
 * A profile changed — the owner's edit (PATCH /account/me) or the operator's, profile links included:
 * services that keep a copy of users refresh theirs.
 */
export const userUpdated = defineEvent('identity', 'user', 'updated', z.object({ user: publicUserSchema }));
