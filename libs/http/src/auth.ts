// Credentials and scopes (docs/platform.md, "Authentication"): parsing the Authorization header, the
// scope rules, and the cache every verification goes through. The Authenticator (authenticator.ts)
// puts these together; one of it exists per process.
import { AppError, unauthorized, sha256Hex } from '@murmur/core';
import type { Clock } from '@murmur/core';
import { InsufficientScopeError } from './errors.js';

export interface AuthInfo {
  userId: number;
  username: string;
  kind: 'app' | 'indieauth';
  scopes: string[];
  clientId: string;
  /** SHA-256 (hex) of the token; the key of revocation events. */
  tokenHash: string;
}

export interface AuthCacheOptions {
  /** How long a positive answer is reused. Default 10 000 ms, and never more. */
  ttlMs?: number;
  /** Entries kept at most per cache; the oldest go first. Default 10 000. */
  maxEntries?: number;
  /** How long an unknown token is remembered as unknown. At most 1 000 ms. Default 1 000. */
  negativeTtlMs?: number;
  /** Timeout of the identity request. Default 3 000 ms. */
  verifyTimeoutMs?: number;
}

/** Bearer token of an Authorization header (scheme case-insensitive, spaces/tabs tolerated), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^[ \t]*bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header ?? '');
  return m?.[1];
}

export interface BasicCredentials {
  login: string;
  token: string;
}

/**
 * `login:token` of a Basic header: undefined when the header is not Basic at all, null when it is
 * Basic but unusable (bad base64, no colon, empty or over-long parts).
 */
export function basicCredentials(header: string | undefined): BasicCredentials | null | undefined {
  const text = header ?? '';
  const m = /^[ \t]*basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(text);
  if (!m) return /^[ \t]*basic\b/i.test(text) ? null : undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const login = decoded.slice(0, colon);
  const token = decoded.slice(colon + 1);
  if (login.trim() === '' || login.length > 254 || token.length === 0 || token.length > 512) return null;
  return { login, token };
}

/** `create` also grants `read` and `follow`; app tokens act with the user's full rights. */
export function hasScope(auth: AuthInfo, scope: string): boolean {
  if (auth.kind === 'app') return true;
  if (auth.scopes.includes(scope)) return true;
  return (scope === 'read' || scope === 'follow') && auth.scopes.includes('create');
}

/** Throws 403 insufficient_scope naming the first scope `auth` lacks. */
export function requireScopes(auth: AuthInfo, scopes: readonly string[]): void {
  const missing = scopes.find((s) => !hasScope(auth, s));
  if (missing !== undefined) throw new InsufficientScopeError(missing);
}

/** `requireScope(auth, 'read')`: 403 insufficient_scope unless `auth` grants it. */
export function requireScope(auth: AuthInfo, scope: string): void {
  requireScopes(auth, [scope]);
}

/** The challenge of our 401 answers: `Bearer realm="murmur"`. */
export function bearerChallenge(realm: string): string {
  return `Bearer realm="${realm.replace(/["\\]/g, '')}"`;
}

/** 401 for a request without a token; identity's wording is the same for every area. */
export const missingToken = (realm?: string) =>
  withChallenge(unauthorized('A valid token is required.', 'unauthorized'), realm);
export const invalidToken = (realm?: string) =>
  withChallenge(unauthorized('The token is not valid.', 'invalid_token'), realm);
export const invalidCredentials = (realm?: string) =>
  withChallenge(unauthorized('The credentials are not valid.', 'invalid_token'), realm);

function withChallenge(err: AppError, realm: string | undefined): AppError {
  if (realm === undefined) return err;
  return new AppError(err.status, err.code, err.message, {
    headers: { 'WWW-Authenticate': bearerChallenge(realm) },
  });
}

interface CacheEntry {
  auth: AuthInfo | null;
  expiresAt: number;
}

/**
 * Verified credentials for a few seconds. Identity is asked once per key at a time (concurrent
 * requests share the question); positive answers are kept ≤ 10 s, negative ones ≤ 1 s; a revocation
 * drops every entry of the token, and an answer that was on its way when the revocation arrived is
 * neither cached nor believed.
 */
export class VerificationCache {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inflight = new Map<string, Promise<AuthInfo | null>>();
  /** Revocations seen lately, by token hash, so an answer already on its way is not cached. */
  private readonly revokedAt = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  /** How long a revocation is remembered: longer than any question can take. */
  private readonly guardMs: number;

  constructor(
    private readonly clock: Clock,
    options: AuthCacheOptions = {},
  ) {
    this.ttlMs = Math.min(options.ttlMs ?? 10_000, 10_000);
    this.negativeTtlMs = Math.min(options.negativeTtlMs ?? 1_000, 1_000);
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.guardMs = Math.max(options.verifyTimeoutMs ?? 3_000, 1_000) * 2;
  }

  /** The cached answer for `key`, or `ask()`'s. `tokenHash` is the hash of the token being checked. */
  async get(key: string, tokenHash: string, ask: () => Promise<AuthInfo | null>): Promise<AuthInfo | null> {
    const now = this.clock.nowMs();
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > now) return hit.auth;
    if (hit) this.cache.delete(key);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.settle(key, tokenHash, ask).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async settle(
    key: string,
    tokenHash: string,
    ask: () => Promise<AuthInfo | null>,
  ): Promise<AuthInfo | null> {
    const startedAt = this.clock.nowMs();
    const auth = await ask();
    if (this.revokedSince(tokenHash, startedAt) || (auth && this.revokedSince(auth.tokenHash, startedAt)))
      return null;
    this.remember(key, auth);
    return auth;
  }

  private revokedSince(tokenHash: string, at: number): boolean {
    return (this.revokedAt.get(tokenHash) ?? -Infinity) >= at;
  }

  /** Drops every entry of the token and refuses answers already on their way. */
  forget(tokenHash: string): void {
    const now = this.clock.nowMs();
    for (const [hash, at] of this.revokedAt) if (at < now - this.guardMs) this.revokedAt.delete(hash);
    this.revokedAt.set(tokenHash, now);
    this.cache.delete(tokenHash);
    for (const [key, entry] of this.cache) if (entry.auth?.tokenHash === tokenHash) this.cache.delete(key);
  }

  private remember(key: string, auth: AuthInfo | null): void {
    const ttl = auth ? this.ttlMs : this.negativeTtlMs;
    if (ttl <= 0) return;
    while (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
    this.cache.set(key, { auth, expiresAt: this.clock.nowMs() + ttl });
  }
}

/** Hash key of a token in the caches and revocation events. */
export const tokenHashOf = (token: string): string => sha256Hex(token);
