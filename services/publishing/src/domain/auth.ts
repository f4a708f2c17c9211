// XML-RPC logins: the username or email plus an app token, checked by identity on every call. Failed
// logins count per (login, client address) in the store, so replicas share the count; once over the
// limit that pair gets HTTP 429 until the window ends, even with the right token.
import { identity } from '@murmur/contracts';
import { createStoreRateLimiter, tooManyRequests, type Store } from '@murmur/platform';
import type { PublishingConfig } from '../config.js';
import type { BusHeaders, Caller, PublishingContext, PublishingLimits } from './context.js';
import { badLogin } from './errors.js';

export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;

export function createLimits(store: Store, config: PublishingConfig): PublishingLimits {
  return {
    failedLogins: createStoreRateLimiter(store, {
      name: 'xmlrpc-failed-login',
      max: config.XMLRPC_FAILED_LOGINS_PER_15_MINUTES,
      windowMs: FAILED_LOGIN_WINDOW_MS,
    }),
    calls: createStoreRateLimiter(store, {
      name: 'xmlrpc-calls',
      max: config.XMLRPC_CALLS_PER_MINUTE,
      windowMs: 60_000,
    }),
  };
}

export async function login(
  ctx: PublishingContext,
  loginName: string,
  token: string,
  clientIp: string,
  headers: BusHeaders,
): Promise<Caller> {
  const key = `${loginName.trim().toLowerCase()}\u0000${clientIp}`;
  const state = await ctx.limits.failedLogins.peek(key);
  if (!state.allowed)
    throw tooManyRequests(state.retryAfterSeconds, 'Too many failed logins. Try again later.');

  const plausible =
    loginName.trim().length >= 1 && loginName.length <= 254 && token.length >= 1 && token.length <= 512;
  const verdict = plausible
    ? await ctx.bus.request(identity.credentialsVerify, { login: loginName.trim(), token }, { headers })
    : ({ ok: false } as const);
  if (!verdict.ok) {
    await ctx.limits.failedLogins.hit(key);
    throw badLogin();
  }
  const calls = await ctx.limits.calls.hit(String(verdict.userId));
  if (!calls.allowed) throw tooManyRequests(calls.retryAfterSeconds);
  return { userId: verdict.userId, username: verdict.username };
}
