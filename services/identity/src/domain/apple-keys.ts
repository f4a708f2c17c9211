// Apple's signing keys (JWKS), fetched through the safe fetcher and cached. A token signed with a
// key we have not seen may mean Apple rotated keys, so an unknown `kid` triggers a refetch — but at
// most once a minute, so forged `kid`s cannot make us hammer the JWKS URL.
import { createLocalJWKSet, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';

export const JWKS_REFETCH_INTERVAL_MS = 60_000;

export type JwksLoader = () => Promise<JSONWebKeySet>;

/** No key set has been fetched yet and the last attempt failed: sign-in cannot be checked right now. */
export class AppleKeysUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the Apple key set could not be fetched', { cause });
    this.name = 'AppleKeysUnavailableError';
  }
}

export class AppleKeys {
  private keys: { resolve: ReturnType<typeof createLocalJWKSet>; kids: Set<string> } | null = null;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private lastError: unknown = null;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly load: JwksLoader,
    private readonly nowMs: () => number,
  ) {}

  /** Key resolver for `jwtVerify`. */
  readonly resolve = async (header: JWSHeaderParameters) => {
    const unknownKid = header.kid !== undefined && !this.keys?.kids.has(header.kid);
    if ((this.keys === null || unknownKid) && this.nowMs() - this.fetchedAt >= JWKS_REFETCH_INTERVAL_MS) {
      await this.refresh();
    }
    if (this.keys === null) throw new AppleKeysUnavailableError(this.lastError);
    // An unknown kid after a refetch ends here with jose's "no applicable key" error.
    return this.keys.resolve(header);
  };

  private refresh(): Promise<void> {
    // Concurrent sign-ins share one fetch.
    this.loading ??= (async () => {
      this.fetchedAt = this.nowMs();
      try {
        const jwks = await this.load();
        this.keys = {
          resolve: createLocalJWKSet(jwks),
          kids: new Set(jwks.keys.map((k) => k.kid).filter((kid): kid is string => typeof kid === 'string')),
        };
        this.lastError = null;
      } catch (err) {
        // Keep serving the keys we have; a failed refetch is retried after the interval.
        this.lastError = err;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }
}
