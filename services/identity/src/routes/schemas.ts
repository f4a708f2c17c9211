// Response shapes. defineRoute sends results through these, so a field that is not listed here can
// never leak (e.g. an email or hash added to a domain object later).
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

export const emptySchema = z.object({});

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  full_name: z.string(),
  bio: z.string(),
  avatar: z.string(),
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
