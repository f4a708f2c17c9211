// Per-use budgets of docs/security.md, outbound fetches. A caller spreads one of these into its fetch options.

export interface FetchLimits {
  /** Whole exchange: connect, every redirect hop, headers and body. */
  readonly timeoutMs: number;
  /** Cap on the decompressed body. */
  readonly maxBytes: number;
  readonly maxRedirects: number;
  /** Cap on establishing one connection; defaults to `timeoutMs`. */
  readonly connectTimeoutMs?: number;
  /** Keep the first `maxBytes` instead of failing (webmention sources are read "first 1 MB"). */
  readonly truncate?: boolean;
}

const KiB = 1024;
const MiB = 1024 * KiB;

export const FETCH_LIMITS = Object.freeze({
  feed: Object.freeze({ timeoutMs: 20_000, maxBytes: 15 * MiB, maxRedirects: 5 }),
  icon: Object.freeze({ timeoutMs: 10_000, maxBytes: 1 * MiB, maxRedirects: 5 }),
  webmention: Object.freeze({
    timeoutMs: 10_000,
    connectTimeoutMs: 5_000,
    maxBytes: 1 * MiB,
    maxRedirects: 10,
    truncate: true,
  }),
  clientId: Object.freeze({ timeoutMs: 5_000, maxBytes: 512 * KiB, maxRedirects: 5 }),
  page: Object.freeze({ timeoutMs: 20_000, maxBytes: 5 * MiB, maxRedirects: 5 }),
  jwks: Object.freeze({ timeoutMs: 5_000, maxBytes: 64 * KiB, maxRedirects: 2 }),
  llm: Object.freeze({ timeoutMs: 60_000, maxBytes: 1 * MiB, maxRedirects: 0 }),
} satisfies Record<string, FetchLimits>);

export type FetchUse = keyof typeof FETCH_LIMITS;
