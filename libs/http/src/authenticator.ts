// The one authenticator of a process (docs/platform.md, "Authentication"). createHttpApp makes it
// from the CredentialVerifier it is given (identity's, over the bus: @murmur/identity-client);
// defineRoute uses it for `auth` routes, and code outside routes (XML-RPC logins) reaches it with
// authenticatorOf(app). Bearer tokens and HTTP Basic logins (username or email + app token) go
// through the same short cache, which forgets a token as soon as the verifier reports its
// revocation. Failed logins are counted per (login, client address) in the store, so every replica
// shares the throttle. This file knows how credentials travel in a request, not who checks them.
import type { FastifyRequest } from 'fastify';
import type { BusHeaders } from '@murmur/bus';
import { sha256Hex, systemClock, type AppError, type Clock } from '@murmur/core';
import type { Store } from '@murmur/store';
import { createLoginThrottle, type LoginThrottle } from './ratelimit.js';
import {
  basicCredentials,
  bearerToken,
  invalidCredentials,
  invalidToken,
  missingToken,
  VerificationCache,
  type AuthCacheOptions,
  type AuthInfo,
} from './auth.js';

export const DEFAULT_REALM = 'murmur';

/**
 * Who decides whether a credential is good (identity, asked over the bus, in every service). Each
 * method answers null for a credential it does not know or that was revoked, and throws (503) when it
 * cannot tell: an outage must not look like a bad token.
 */
export interface CredentialVerifier {
  /** The bearer token's owner and rights. */
  verifyToken(token: string, headers: BusHeaders): Promise<AuthInfo | null>;
  /** A login (username or email) with an app token as password: the user acting with every scope. */
  verifyCredentials(login: string, token: string, headers: BusHeaders): Promise<AuthInfo | null>;
  /** Calls `forget` with the hash of every token revoked from now on; resolves once listening. */
  watchRevocations(forget: (tokenHash: string) => void): Promise<{ close(): Promise<void> }>;
}

export interface AuthenticatorOptions extends AuthCacheOptions {
  /** Default systemClock. */
  clock?: Clock;
  /** Where failed logins are counted. Without it, Basic and verifyCredentials are refused (a bug). */
  store?: Store;
  /** Failed-login throttle: default 10 per 15 minutes per (login, client address). */
  failedLogins?: { max?: number; windowMs?: number; name?: string };
  /** Realm of the 401 challenge (`Bearer realm="…"`). Default `murmur`. */
  realm?: string;
}

export interface CredentialContext {
  /** The client address (request.ip): half of the throttle key. */
  ip: string;
  /** Bus headers, so the request id travels on. */
  headers: BusHeaders;
}

export class Authenticator {
  readonly realm: string;
  private readonly clock: Clock;
  private readonly bearer: VerificationCache;
  private readonly basic: VerificationCache;
  private readonly throttle: LoginThrottle | undefined;
  private watching: { close(): Promise<void> } | undefined;

  constructor(
    private readonly verifier: CredentialVerifier,
    options: AuthenticatorOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.realm = options.realm ?? DEFAULT_REALM;
    this.bearer = new VerificationCache(this.clock, options);
    this.basic = new VerificationCache(this.clock, options);
    this.throttle = options.store
      ? createLoginThrottle(options.store, { ...options.failedLogins, clock: this.clock })
      : undefined;
  }

  /** Whether Basic logins can be checked (a store for the throttle was given). */
  get acceptsLogins(): boolean {
    return this.throttle !== undefined;
  }

  /** Starts listening for revocations. Once per process (createHttpApp does it). */
  async listen(): Promise<void> {
    if (this.watching) return;
    this.watching = await this.verifier.watchRevocations((tokenHash) => this.forget(tokenHash));
  }

  async close(): Promise<void> {
    await this.watching?.close();
    this.watching = undefined;
  }

  /** Drops the token from both caches (the revocation listener calls it). */
  forget(tokenHash: string): void {
    this.bearer.forget(tokenHash);
    this.basic.forget(tokenHash);
  }

  /**
   * The token's owner and rights, or null for an unknown/revoked token. Throws 503 when the verifier
   * cannot answer: an outage must not look like a bad token.
   */
  async verifyToken(token: string, headers: BusHeaders): Promise<AuthInfo | null> {
    // Tokens longer than identity accepts cannot exist; asking would only earn a validation error.
    if (token.length === 0 || token.length > 512) return null;
    const hash = sha256Hex(token);
    return this.bearer.get(hash, hash, () => this.verifier.verifyToken(token, headers));
  }

  /**
   * A login (username or email) with an app token as password: the user acting with every scope, or
   * null. Throws 429 (Retry-After) while (login, ip) has too many failed logins, even when this one
   * is right; each failure counts. Throws 503 when the verifier cannot answer.
   */
  async verifyCredentials(login: string, token: string, ctx: CredentialContext): Promise<AuthInfo | null> {
    const throttle = this.throttle;
    if (!throttle) throw new Error('verifyCredentials needs createHttpApp({ store }) for its throttle');
    await throttle.check(login, ctx.ip);
    const name = login.trim();
    const plausible = name.length >= 1 && name.length <= 254 && token.length >= 1 && token.length <= 512;
    const auth = plausible ? await this.askCredentials(name, token, ctx.headers) : null;
    if (!auth) await throttle.fail(login, ctx.ip);
    return auth;
  }

  private askCredentials(login: string, token: string, headers: BusHeaders): Promise<AuthInfo | null> {
    const tokenHash = sha256Hex(token);
    const key = sha256Hex(`${login.toLowerCase()}\u0000${token}`);
    return this.basic.get(key, tokenHash, async () => {
      const auth = await this.verifier.verifyCredentials(login, token, headers);
      return auth && { ...auth, tokenHash };
    });
  }

  /**
   * The credentials of the Authorization header: a Bearer token, or with `basic` an HTTP Basic login.
   * Undefined when none of an accepted scheme is present (another scheme, e.g. Basic added by a proxy,
   * is not ours to judge); throws 401 for a bad one.
   */
  async fromHeader(
    request: FastifyRequest,
    options: { basic?: boolean } = {},
  ): Promise<AuthInfo | undefined> {
    const header = request.headers.authorization;
    const token = bearerToken(header);
    if (token !== undefined) {
      const auth = await this.verifyToken(token, { 'x-request-id': request.id });
      if (!auth) throw this.invalidToken();
      return auth;
    }
    if (!options.basic) return undefined;
    const basic = basicCredentials(header);
    if (basic === undefined) return undefined;
    if (basic === null) throw invalidCredentials(this.realm);
    const auth = await this.verifyCredentials(basic.login, basic.token, {
      ip: request.ip,
      headers: { 'x-request-id': request.id },
    });
    if (!auth) throw invalidCredentials(this.realm);
    return auth;
  }

  /** 401 `A valid token is required.` with this realm's challenge. */
  missingToken(): AppError {
    return missingToken(this.realm);
  }

  /** 401 `The token is not valid.` with this realm's challenge. */
  invalidToken(): AppError {
    return invalidToken(this.realm);
  }
}
