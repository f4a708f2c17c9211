// Bearer authentication (DESIGN.md §7): every service asks identity over the bus, remembers positive
// answers for a few seconds, and forgets a token as soon as identity announces its revocation.
import { identity } from '@murmur/contracts';
import type { Logger } from 'pino';
import type { Bus, Subscription } from '../bus/port.js';
import { AppError, serviceUnavailable, unauthorized } from '../errors/index.js';
import { sha256Hex } from '../ids/index.js';
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
  /** How long a positive answer is reused. Default 10 000 ms (security.md §2: ≤ 10 s). */
  ttlMs?: number;
  /** Entries kept at most; the oldest go first. Default 10 000. */
  maxEntries?: number;
  /** How long an unknown token is remembered as unknown. At most 1 000 ms. Default 1 000. */
  negativeTtlMs?: number;
  /** Timeout of the `identity.token.verify` request. Default 3 000 ms. */
  verifyTimeoutMs?: number;
}

interface CacheEntry {
  auth: AuthInfo | null;
  expiresAt: number;
}

/** Bearer token of an Authorization header (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header ?? '');
  return m?.[1];
}

/** `create` also grants `read` and `follow`; app tokens act with the user's full rights. */
export function hasScope(auth: AuthInfo, scope: string): boolean {
  if (auth.kind === 'app') return true;
  if (auth.scopes.includes(scope)) return true;
  return (scope === 'read' || scope === 'follow') && auth.scopes.includes('create');
}

export function requireScopes(auth: AuthInfo, scopes: readonly string[]): void {
  const missing = scopes.find((s) => !hasScope(auth, s));
  if (missing !== undefined) throw new InsufficientScopeError(missing);
}

export class TokenVerifier {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inflight = new Map<string, Promise<AuthInfo | null>>();
  /** Revocations seen lately, so an answer already on its way when one arrives is not cached. */
  private readonly revokedAt = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly timeoutMs: number;
  private subscription: Subscription | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
    options: AuthCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.negativeTtlMs = Math.min(options.negativeTtlMs ?? 1_000, 1_000);
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.timeoutMs = options.verifyTimeoutMs ?? 3_000;
  }

  /** Starts listening for revocations. Once per app. */
  async listen(): Promise<void> {
    this.subscription = await this.bus.listen(identity.tokenRevoked, async (event) => {
      this.forget(event.data.tokenHash);
    });
  }

  async close(): Promise<void> {
    await this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  forget(tokenHash: string): void {
    const now = Date.now();
    for (const [hash, at] of this.revokedAt) if (at < now - this.timeoutMs) this.revokedAt.delete(hash);
    this.revokedAt.set(tokenHash, now);
    this.cache.delete(tokenHash);
    for (const [key, entry] of this.cache) if (entry.auth?.tokenHash === tokenHash) this.cache.delete(key);
  }

  /**
   * The token's owner and rights, or null for an unknown/revoked token. Throws 503 when identity
   * cannot answer: a bus outage must not look like a bad token.
   */
  async verify(token: string, headers: Record<string, string>): Promise<AuthInfo | null> {
    const key = sha256Hex(token);
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.auth;
    if (hit) this.cache.delete(key);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.ask(token, key, headers).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async ask(token: string, key: string, headers: Record<string, string>): Promise<AuthInfo | null> {
    // Tokens longer than identity accepts cannot exist; asking would only earn a validation error.
    if (token.length > 512) return null;
    const startedAt = Date.now();
    let answer;
    try {
      answer = await this.bus.request(
        identity.tokenVerify,
        { token },
        { headers, timeoutMs: this.timeoutMs },
      );
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        this.logger.warn({ err }, 'identity refused a token verification request');
        return null;
      }
      this.logger.error({ err }, 'token verification failed');
      throw serviceUnavailable('Authentication is temporarily unavailable.');
    }
    const auth: AuthInfo | null = answer.active
      ? {
          userId: answer.userId,
          username: answer.username,
          kind: answer.kind,
          scopes: answer.scopes,
          clientId: answer.clientId,
          tokenHash: answer.tokenHash,
        }
      : null;
    if (auth && (this.revokedAt.get(auth.tokenHash) ?? -1) >= startedAt) return null;
    this.remember(key, auth);
    return auth;
  }

  private remember(key: string, auth: AuthInfo | null): void {
    const ttl = auth ? this.ttlMs : this.negativeTtlMs;
    if (ttl <= 0) return;
    while (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
    this.cache.set(key, { auth, expiresAt: Date.now() + ttl });
  }
}

/** 401 for a request without a token; identity's wording is the same for every area. */
export const missingToken = () => unauthorized('A valid token is required.', 'unauthorized');
export const invalidToken = () => unauthorized('The token is not valid.', 'invalid_token');
