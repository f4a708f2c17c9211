// Authentication of every reader route: `Authorization: Bearer <token>` through the platform's token
// verifier, and — beyond the interface, for Feedbin clients — HTTP Basic with the username or email
// and an app token as the password (identity.credentials.verify). Both give the same AuthInfo; Basic
// logins act as the app token they carry. Runs on onRequest, so no body of an unauthenticated request
// is ever read.
import { identity, SCOPES } from '@murmur/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AppError,
  bearerToken,
  busHeaders,
  hasScope,
  InsufficientScopeError,
  serviceUnavailable,
  sha256Hex,
  TokenVerifier,
  type AuthInfo,
  type Bus,
  type Logger,
  type Subscription,
} from '@murmur/platform';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every reader route before its handler runs. */
    readerAuth?: AuthInfo;
  }
}

/** `read` for reading and reading state, `follow` for subscriptions, `create` for the user's own content. */
export type ReaderScope = 'read' | 'follow' | 'create';

const CACHE_TTL_MS = 10_000;
const NEGATIVE_TTL_MS = 1_000;
const MAX_CACHED = 10_000;

export const unauthenticated = (message = 'A valid token is required.') =>
  new AppError(401, 'unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="service"' } });

interface Cached {
  auth: AuthInfo | null;
  expiresAt: number;
}

/** `login:token` of a Basic header, or undefined when the header is not Basic. */
function basicCredentials(header: string | undefined): { login: string; token: string } | null | undefined {
  const m = /^basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header ?? '');
  if (!m) return /^basic\b/i.test(header ?? '') ? null : undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const login = decoded.slice(0, colon);
  const token = decoded.slice(colon + 1);
  if (login.length > 254 || token.length === 0 || token.length > 512) return null;
  return { login, token };
}

export class ReaderAuthenticator {
  private readonly bearer: TokenVerifier;
  private readonly basicCache = new Map<string, Cached>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
  ) {
    this.bearer = new TokenVerifier(bus, logger);
  }

  async listen(): Promise<void> {
    await this.bearer.listen();
    this.subscription = await this.bus.listen(identity.tokenRevoked, async (event) => {
      for (const [key, entry] of this.basicCache) {
        if (entry.auth?.tokenHash === event.data.tokenHash) this.basicCache.delete(key);
      }
    });
  }

  async close(): Promise<void> {
    await this.bearer.close();
    await this.subscription?.unsubscribe();
  }

  async authenticate(request: FastifyRequest): Promise<AuthInfo> {
    const header = request.headers.authorization;
    const token = bearerToken(header);
    if (token !== undefined) {
      const auth = await this.bearer.verify(token, busHeaders(request));
      if (!auth) throw unauthenticated('The token is not valid.');
      return auth;
    }
    const basic = basicCredentials(header);
    if (basic === undefined) throw unauthenticated();
    if (basic === null) throw unauthenticated('The credentials are not valid.');
    const auth = await this.verifyBasic(basic.login, basic.token, busHeaders(request));
    if (!auth) throw unauthenticated('The credentials are not valid.');
    return auth;
  }

  private async verifyBasic(
    login: string,
    token: string,
    headers: Record<string, string>,
  ): Promise<AuthInfo | null> {
    const key = sha256Hex(`${login.trim().toLowerCase()}\u0000${token}`);
    const hit = this.basicCache.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.auth;
    let answer;
    try {
      answer = await this.bus.request(
        identity.credentialsVerify,
        { login, token },
        { headers, timeoutMs: 3000 },
      );
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return null;
      this.logger.error({ err }, 'credentials verification failed');
      throw serviceUnavailable('Authentication is temporarily unavailable.');
    }
    const auth: AuthInfo | null = answer.ok
      ? {
          userId: answer.userId,
          username: answer.username,
          kind: 'app',
          scopes: [...SCOPES],
          clientId: '',
          tokenHash: sha256Hex(token),
        }
      : null;
    while (this.basicCache.size >= MAX_CACHED) this.basicCache.delete(this.basicCache.keys().next().value!);
    this.basicCache.set(key, { auth, expiresAt: Date.now() + (auth ? CACHE_TTL_MS : NEGATIVE_TTL_MS) });
    return auth;
  }
}

/** Every route of `scope` requires credentials; `scopeOf` names the scope a route needs. */
export function requireReaderAuth(
  scope: FastifyInstance,
  authenticator: ReaderAuthenticator,
  scopeOf: (method: string, url: string) => ReaderScope | undefined,
): void {
  scope.addHook('onRequest', async (request) => {
    const auth = await authenticator.authenticate(request);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const needed = scopeOf(method, request.routeOptions.url ?? '');
    if (needed !== undefined && !hasScope(auth, needed)) throw new InsufficientScopeError(needed);
    request.readerAuth = auth;
  });
}
