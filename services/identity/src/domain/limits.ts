// Rate limits of the account and IndieAuth endpoints (docs/security.md), each keyed on what it
// protects: a mailbox under the hash of its address (the counters need no addresses), everything
// else per client address. Store-backed through the platform's limits, so every replica counts
// against the same allowance; sliding windows, so a burst across a window boundary still counts as
// one burst. The names are the counters' names in the store: they stay as they were deployed.
import { sha256Hex, type Clock } from '@murmur/core';
import { createLimits, type Limits } from '@murmur/http';
import { type Store } from '@murmur/store';
import type { IdentityConfig } from '../config.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export type LimitName =
  | 'signin-email'
  | 'signin-ip'
  | 'verify-ip'
  | 'apple-ip'
  /** Opening an emailed web sign-in link and confirming it: one allowance. */
  | 'signin-web-ip'
  /** The IndieAuth screens: authorization, approve, sign-in form. */
  | 'indieauth-screen-ip'
  /** IndieAuth code redemption and revocation. */
  | 'indieauth-redeem-ip';

export type IdentityLimits = Limits<LimitName>;

export function createIdentityLimits(store: Store, clock: Clock, config: IdentityConfig): IdentityLimits {
  const perMinute = (max = config.ACCOUNT_LIMIT_PER_IP_PER_MINUTE) =>
    ({ max, windowMs: MINUTE_MS, mode: 'sliding' }) as const;
  return createLimits<LimitName>(store, clock, {
    'signin-email': {
      max: config.SIGNIN_LIMIT_PER_EMAIL_PER_HOUR,
      windowMs: HOUR_MS,
      mode: 'sliding',
      message: 'Too many sign-in requests for this email address. Try again later.',
    },
    'signin-ip': {
      max: config.SIGNIN_LIMIT_PER_IP_PER_HOUR,
      windowMs: HOUR_MS,
      mode: 'sliding',
      message: 'Too many sign-in requests from this address. Try again later.',
    },
    'verify-ip': { ...perMinute(), message: 'Too many verification attempts. Try again later.' },
    'apple-ip': { ...perMinute(), message: 'Too many sign-in attempts. Try again later.' },
    'signin-web-ip': { ...perMinute(), message: 'Too many sign-in attempts. Try again later.' },
    'indieauth-screen-ip': {
      ...perMinute(config.INDIEAUTH_SCREEN_LIMIT_PER_IP_PER_MINUTE),
      message: 'Too many requests from your network. Wait a minute and try again.',
    },
    'indieauth-redeem-ip': {
      ...perMinute(config.INDIEAUTH_REDEEM_LIMIT_PER_IP_PER_MINUTE),
      message: 'Too many requests. Try again in a minute.',
    },
  });
}

/**
 * One request for a sign-in email: counted per client address and per address asked for, whichever
 * form it came from (/account/signin or the IndieAuth screen), since both protect the same mailboxes.
 */
export async function enforceSigninLimits(limits: IdentityLimits, ip: string, email: string): Promise<void> {
  await limits.enforce('signin-ip', ip);
  await limits.enforce('signin-email', emailLimitKey(email));
}

export function emailLimitKey(email: string): string {
  return sha256Hex(email.toLowerCase());
}
