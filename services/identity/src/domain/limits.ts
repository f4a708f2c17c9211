// Rate limits of the account and IndieAuth endpoints (docs/security.md). Store-backed, so every
// replica counts against the same allowance. Sliding windows, so a burst across a window boundary still counts as
// one burst. Emails are counted under their hash: the counters need no addresses.
import {
  createStoreRateLimiter,
  sha256Hex,
  tooManyRequests,
  type Store,
  type StoreRateLimiter,
} from '@murmur/platform';
import type { IdentityConfig } from '../config.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface AccountLimits {
  signinPerEmail: StoreRateLimiter;
  signinPerIp: StoreRateLimiter;
  verifyPerIp: StoreRateLimiter;
  applePerIp: StoreRateLimiter;
  webSigninPerIp: StoreRateLimiter;
  /** The IndieAuth screens: authorization, approve, sign-in form. */
  indieAuthScreenPerIp: StoreRateLimiter;
  /** IndieAuth code redemption and revocation. */
  indieAuthRedeemPerIp: StoreRateLimiter;
}

export function createAccountLimits(store: Store, config: IdentityConfig, now: () => Date): AccountLimits {
  const clock = () => now().getTime();
  const perMinute = (name: string, max = config.ACCOUNT_LIMIT_PER_IP_PER_MINUTE) =>
    createStoreRateLimiter(store, {
      name,
      max,
      windowMs: MINUTE_MS,
      mode: 'sliding',
      now: clock,
    });
  return {
    signinPerEmail: createStoreRateLimiter(store, {
      name: 'signin-email',
      max: config.SIGNIN_LIMIT_PER_EMAIL_PER_HOUR,
      windowMs: HOUR_MS,
      mode: 'sliding',
      now: clock,
    }),
    signinPerIp: createStoreRateLimiter(store, {
      name: 'signin-ip',
      max: config.SIGNIN_LIMIT_PER_IP_PER_HOUR,
      windowMs: HOUR_MS,
      mode: 'sliding',
      now: clock,
    }),
    verifyPerIp: perMinute('verify-ip'),
    applePerIp: perMinute('apple-ip'),
    webSigninPerIp: perMinute('signin-web-ip'),
    indieAuthScreenPerIp: perMinute('indieauth-screen-ip', config.INDIEAUTH_SCREEN_LIMIT_PER_IP_PER_MINUTE),
    indieAuthRedeemPerIp: perMinute('indieauth-redeem-ip', config.INDIEAUTH_REDEEM_LIMIT_PER_IP_PER_MINUTE),
  };
}

/** Counts one hit; over the allowance → 429 with Retry-After. */
export async function enforceLimit(limiter: StoreRateLimiter, key: string, message: string): Promise<void> {
  const result = await limiter.hit(key);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, message);
}

export function emailLimitKey(email: string): string {
  return sha256Hex(email.toLowerCase());
}

/**
 * One request for a sign-in email: counted per client address and per address asked for, whichever
 * form it came from (/account/signin or the IndieAuth screen), since both protect the same mailboxes.
 */
export async function enforceSigninLimits(limits: AccountLimits, ip: string, email: string): Promise<void> {
  await enforceLimit(limits.signinPerIp, ip, 'Too many sign-in requests from this address. Try again later.');
  await enforceLimit(
    limits.signinPerEmail,
    emailLimitKey(email),
    'Too many sign-in requests for this email address. Try again later.',
  );
}
