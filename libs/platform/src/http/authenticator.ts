// The one authenticator of a process (docs/platform.md, "Authentication"). createHttpApp makes it;
// defineRoute uses it for `auth` routes, and code outside routes (XML-RPC logins) reaches it with
// authenticatorOf(app). Bearer tokens are checked with identity.token.verify, HTTP Basic logins
// (username or email + app token) with identity.credentials.verify; both answers go through the same
// short cache, which forgets a token as soon as identity announces its revocation. Failed logins
// are counted per (login, client address) in the store, so every replica shares the throttle.
import { identity, SCOPES } from '@murmur/contracts';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Bus, BusHeaders, Subscription } from '../bus/port.js';
import { AppError } from '../errors/index.js';
import { sha256Hex } from '../ids/index.js';
import { createLoginThrottle, type LoginThrottle } from '../ratelimit/index.js';
import type { Store } from '../store/port.js';
import { systemClock, type Clock } from '../time/clock.js';
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

/** Answer of identity for a bad question (4xx): the credential is as good as unknown. */
function refusedByIdentity(err: unknown): boolean {
  return err instanceof AppError && err.status < 500;
}

export const authUnavailable = () =>
  new AppError(503, 'unavailable', 'Authentication is temporarily unavailable.', {
    headers: { 'Retry-After': '5' },
  });

export class Authenticator {
  readonly realm: string;
  private readonly clock: Clock;
  private readonly bearer: VerificationCache;
  private readonly basic: VerificationCache;
  private readonly throttle: LoginThrottle | undefined;
  private readonly timeoutMs: number;
  private subscription: Subscription | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
    options: AuthenticatorOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.realm = options.realm ?? DEFAULT_REALM;
    this.timeoutMs = options.verifyTimeoutMs ?? 3_000;
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
    if (this.subscription) return;
    this.subscription = await this.bus.listen(identity.tokenRevoked, async (event) => {
      this.forget(event.data.tokenHash);
    });
  }

  async close(): Promise<void> {
    await this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  /** Drops the token from both caches (the revocation listener calls it). */
  forget(tokenHash: string): void {
    this.bearer.forget(tokenHash);
    this.basic.forget(tokenHash);
  }

  /**
   * The token's owner and rights, or null for an unknown/revoked token. Throws 503 when identity
   * cannot answer: a bus outage must not look like a bad token.
   */
  async verifyToken(token: string, headers: BusHeaders): Promise<AuthInfo | null> {
    // Tokens longer than identity accepts cannot exist; asking would only earn a validation error.
    if (token.length === 0 || token.length > 512) return null;
    const hash = sha256Hex(token);
    return this.bearer.get(hash, hash, async () => {
      let answer;
      try {
        answer = await this.bus.request(
          identity.tokenVerify,
          { token },
          { headers, timeoutMs: this.timeoutMs },
        );
      } catch (err) {
        if (refusedByIdentity(err)) {
          this.logger.warn({ err }, 'identity refused a token verification request');
          return null;
        }
        this.logger.error({ err }, 'token verification failed');
        throw authUnavailable();
      }
      if (!answer.active) return null;
      return {
        userId: answer.userId,
        username: answer.username,
        kind: answer.kind,
        scopes: answer.scopes,
        clientId: answer.clientId,
        tokenHash: answer.tokenHash,
      };
    });
  }

  /**
   * A login (username or email) with an app token as password: the user acting with every scope, or
   * null. Throws 429 (Retry-After) while (login, ip) has too many failed logins, even when this one
   * is right; each failure counts. Throws 503 when identity cannot answer.
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
      let answer;
      try {
        answer = await this.bus.request(
          identity.credentialsVerify,
          { login, token },
          { headers, timeoutMs: this.timeoutMs },
        );
      } catch (err) {
        if (refusedByIdentity(err)) return null;
        this.logger.error({ err }, 'credentials verification failed');
        throw authUnavailable();
      }
      if (!answer.ok) return null;
      // A login acts as the app token it carries: every scope.
      return {
        userId: answer.userId,
        username: answer.username,
        kind: 'app',
        scopes: [...SCOPES],
        clientId: '',
        tokenHash,
      };
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

/**
 * Bearer verification alone.
 * @deprecated Use the process's Authenticator (`authenticatorOf(app)` or defineRoute's `auth`), which
 * also does Basic and the failed-login throttle with the same cache. Kept while services build their own.
 */
export class TokenVerifier {
  private readonly inner: Authenticator;

  constructor(bus: Bus, logger: Logger, options: AuthCacheOptions & { clock?: Clock } = {}) {
    this.inner = new Authenticator(bus, logger, options);
  }

  listen(): Promise<void> {
    return this.inner.listen();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  forget(tokenHash: string): void {
    this.inner.forget(tokenHash);
  }

  /** The token's owner and rights, or null for an unknown/revoked token. 503 when identity cannot answer. */
  verify(token: string, headers: BusHeaders): Promise<AuthInfo | null> {
    return this.inner.verifyToken(token, headers);
  }
}
