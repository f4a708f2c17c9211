// Identity's environment: the base variables every service reads, its port, and its own settings.
// docs/configuration.md describes each variable.
import { z } from 'zod';
import { baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

const mailUrl = () =>
  z.string().transform((text, ctx) => {
    const s = text.trim();
    let url: URL | null = null;
    try {
      url = new URL(s);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
      ctx.addIssue({ code: 'custom', message: 'must be smtp://[user:password@]host[:port] or smtps://…' });
      return z.NEVER;
    }
    return s;
  });

const clientIdList = () =>
  envVar.list({
    test: (id) => /^[A-Za-z0-9._-]+$/.test(id),
    message: 'must be a comma list of Apple client ids (bundle or service ids)',
  });

export const identityConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('identity'),
  /** Bearer token of the operator API (/admin/*); the API answers 403 while unset. */
  MURMUR_ADMIN_TOKEN: z
    .string()
    .trim()
    .min(16, { error: 'must be at least 16 characters (use a long random string)' })
    .optional(),
  /** Where mail goes; unset → .eml files in $DATA_DIR/outbox/. */
  MAIL_URL: mailUrl().optional(),
  MAIL_FROM: envVar.string().default('Murmur <murmur@localhost>'),
  APPLE_JWKS_URL: envVar.httpUrl().default('https://appleid.apple.com/auth/keys'),
  /** Accepted `aud` values of Apple identity tokens; empty → Sign in with Apple is refused. */
  APPLE_CLIENT_IDS: clientIdList().default([]),
  SIGNIN_TOKEN_TTL_MINUTES: envVar.int({ min: 1, max: 1440 }).default(15),
  SIGNIN_LIMIT_PER_EMAIL_PER_HOUR: envVar.int({ min: 1, max: 100_000 }).default(5),
  SIGNIN_LIMIT_PER_IP_PER_HOUR: envVar.int({ min: 1, max: 100_000 }).default(20),
  /** /account/verify, /account/apple and /account/signin/web, each per client IP. */
  ACCOUNT_LIMIT_PER_IP_PER_MINUTE: envVar.int({ min: 1, max: 100_000 }).default(30),
  /** GET /indieauth/auth, POST /indieauth/approve and /indieauth/signin, per client IP. */
  INDIEAUTH_SCREEN_LIMIT_PER_IP_PER_MINUTE: envVar.int({ min: 1, max: 100_000 }).default(60),
  /**
   * Whether every IndieAuth request must carry a PKCE S256 challenge. Only turn it off for clients
   * that cannot send one: without it, an intercepted code can be redeemed by whoever holds it.
   */
  INDIEAUTH_REQUIRE_PKCE: envVar.bool().default(true),
  /** Code redemption and revocation at /indieauth/token and POST /indieauth/auth, per client IP. */
  INDIEAUTH_REDEEM_LIMIT_PER_IP_PER_MINUTE: envVar.int({ min: 1, max: 100_000 }).default(60),
});

export type IdentityConfig = z.output<typeof identityConfigSchema>;
