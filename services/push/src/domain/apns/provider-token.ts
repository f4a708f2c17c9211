// APNs provider tokens (docs/api/push.md, "Delivery"): an ES256 JWT with `kid` = key id and `iss` =
// team id, signed with the app's `.p8` key. One cached token per (team, key); it is replaced after 45
// minutes (Apple refuses tokens older than an hour and updates more often than every 20 minutes), or
// once when APNs rejects it — and only if it is still the cached one, so a burst of rejections mints once.
import { createHash } from 'node:crypto';
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import type { Clock } from '@murmur/core';

export const TOKEN_RENEW_AFTER_MS = 45 * 60_000;
/** APNs answers TooManyProviderTokenUpdates to tokens replaced more often than this. */
export const TOKEN_MIN_LIFE_MS = 20 * 60_000;

export interface ProviderCredentials {
  teamId: string;
  keyId: string;
  key: string;
}

interface Cached {
  jwt: string;
  issuedAtMs: number;
  /** Signed because APNs rejected the one before. */
  replacement: boolean;
}

export class ProviderTokens {
  private readonly tokens = new Map<string, Cached>();
  private readonly minting = new Map<string, Promise<Cached>>();
  private readonly keys = new Map<string, Promise<CryptoKey>>();
  /** Keys whose next token replaces a rejected one. */
  private readonly replacing = new Set<string>();
  /** How many tokens were signed (the 20-minute rule is observable through it in tests). */
  minted = 0;

  constructor(private readonly clock: Clock) {}

  /** The cache key: team, key id and a digest of the key (a replaced key is a new token). */
  private keyOf(c: ProviderCredentials): string {
    const digest = createHash('sha256').update(c.key).digest('hex').slice(0, 16);
    return `${c.teamId}\u0000${c.keyId}\u0000${digest}`;
  }

  async get(c: ProviderCredentials): Promise<string> {
    const id = this.keyOf(c);
    const cached = this.tokens.get(id);
    if (cached && this.clock.nowMs() - cached.issuedAtMs < TOKEN_RENEW_AFTER_MS) return cached.jwt;
    return (await this.mint(id, c)).jwt;
  }

  /**
   * APNs rejected `jwt`. True when a retry should be made with a new token: the rejected one is
   * replaced (once, however many callers report it) — unless it is itself a replacement younger than
   * 20 minutes, when the credentials are wrong rather than the token old, and signing yet another
   * would only count against Apple's limit.
   */
  rejected(c: ProviderCredentials, jwt: string): boolean {
    const id = this.keyOf(c);
    const cached = this.tokens.get(id);
    if (cached?.jwt !== jwt) return true; // already replaced by another caller
    if (cached.replacement && this.clock.nowMs() - cached.issuedAtMs < TOKEN_MIN_LIFE_MS) return false;
    this.tokens.delete(id);
    this.replacing.add(id);
    return true;
  }

  private mint(id: string, c: ProviderCredentials): Promise<Cached> {
    let pending = this.minting.get(id);
    if (pending) return pending;
    pending = (async () => {
      let key = this.keys.get(id);
      if (!key) {
        key = importPKCS8(c.key, 'ES256');
        this.keys.set(id, key);
        key.catch(() => this.keys.delete(id));
      }
      const issuedAtMs = this.clock.nowMs();
      const jwt = await new SignJWT({ iss: c.teamId, iat: Math.floor(issuedAtMs / 1000) })
        .setProtectedHeader({ alg: 'ES256', kid: c.keyId })
        .sign(await key);
      this.minted += 1;
      const cached = { jwt, issuedAtMs, replacement: this.replacing.delete(id) };
      this.tokens.set(id, cached);
      return cached;
    })().finally(() => this.minting.delete(id));
    this.minting.set(id, pending);
    return pending;
  }
}
