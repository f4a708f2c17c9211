// Rate limits shared by every replica (docs/security.md, rate limits: counters protecting credentials and third
// parties). Counters live in the service's own store, one document per (limiter, key, window),
// incremented atomically; a TTL index removes them once their window can no longer matter.
import { tooManyRequests } from '@murmur/core';
import { DuplicateKeyError, type Store } from '@murmur/store';
import type { Clock } from '@murmur/core';

export interface StoreRateLimiterOptions {
  /** Distinguishes limiters sharing the collection, e.g. `signin-email`. */
  name: string;
  /** Hits allowed per window. */
  max: number;
  windowMs: number;
  /**
   * `fixed` (default): the count restarts at each window boundary, and a blocked key waits for the
   * window's end. `sliding`: the previous window's count is weighted by how much of it still
   * overlaps, which smooths bursts at boundaries.
   */
  mode?: 'fixed' | 'sliding';
  /** The process clock (ServiceContext.clock). Wins over `now`. */
  clock?: Clock;
  /** Clock in milliseconds, for tests. Prefer `clock`. */
  now?: () => number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** When not allowed, seconds until a hit would be allowed again (≥ 1); 0 when allowed. */
  retryAfterSeconds: number;
}

export interface StoreRateLimiter {
  /** Counts one hit for `key` and says whether it is within the limit. */
  hit(key: string): Promise<RateLimitResult>;
  /** The state for `key` without counting (e.g. check before trying a password, count on failure). */
  peek(key: string): Promise<RateLimitResult>;
  /** Forgets `key`'s counts (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>;
}

interface CounterDoc {
  _id: string;
  name: string;
  key: string;
  windowStart: number;
  count: number;
  expiresAt: Date;
  [field: string]: unknown;
}

export const RATE_LIMIT_COLLECTION = 'ratelimits';

export function createStoreRateLimiter(store: Store, options: StoreRateLimiterOptions): StoreRateLimiter {
  const { name, max, windowMs } = options;
  if (!(max >= 1 && windowMs >= 1))
    throw new Error(`rate limiter ${name}: max and windowMs must be positive`);
  const sliding = options.mode === 'sliding';
  const clock = options.clock;
  const now = clock ? () => clock.nowMs() : (options.now ?? Date.now);
  // Counters are on every request's path and harmless to lose: acknowledged without waiting for the disk.
  const counters = store.collection<CounterDoc>(RATE_LIMIT_COLLECTION, { durability: 'relaxed' });
  let indexed: Promise<void> | undefined;
  const ensureIndexes = () => {
    indexed ??= Promise.all([
      counters.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      counters.createIndex({ name: 1, key: 1 }),
    ]).then(
      () => undefined,
      (err: unknown) => {
        indexed = undefined;
        throw err;
      },
    );
    return indexed;
  };

  const idOf = (key: string, windowStart: number) => `${name}\u0000${key}\u0000${windowStart}`;

  async function increment(key: string, windowStart: number): Promise<number> {
    const update = {
      $inc: { count: 1 },
      // The previous window still counts in sliding mode, so keep it for two windows.
      $set: { name, key, windowStart, expiresAt: new Date(windowStart + windowMs * (sliding ? 2 : 1)) },
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await counters.findOneAndUpdate({ _id: idOf(key, windowStart) }, update, {
          upsert: true,
          returnDocument: 'after',
        });
        return doc?.count ?? 1;
      } catch (err) {
        // Two replicas upserting the same new window: one insert wins, the other retries as an update.
        if (!(err instanceof DuplicateKeyError) || attempt >= 2) throw err;
      }
    }
  }

  async function countOf(key: string, windowStart: number): Promise<number> {
    const doc = await counters.findOne({ _id: idOf(key, windowStart) });
    return doc?.count ?? 0;
  }

  async function evaluate(key: string, count: boolean): Promise<RateLimitResult> {
    await ensureIndexes();
    const t = now();
    const windowStart = Math.floor(t / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    const current = count ? await increment(key, windowStart) : await countOf(key, windowStart);
    if (!sliding) {
      const allowed = count ? current <= max : current < max;
      return {
        allowed,
        remaining: Math.max(0, max - current),
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowEnd - t) / 1000)),
      };
    }
    const previous = await countOf(key, windowStart - windowMs);
    const overlap = 1 - (t - windowStart) / windowMs;
    const estimate = previous * overlap + current;
    const allowed = count ? estimate <= max : estimate < max;
    if (allowed) return { allowed, remaining: Math.max(0, Math.floor(max - estimate)), retryAfterSeconds: 0 };
    // Blocked until the previous window has slid out far enough for one more hit, or this window ends.
    let waitMs = windowEnd - t;
    if (current + 1 <= max && previous > 0) {
      const windowsToWait = (estimate + 1 - max) / previous;
      waitMs = Math.min(waitMs, Math.max(0, windowsToWait * windowMs));
    }
    return { allowed, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  return {
    hit: (key) => evaluate(key, true),
    peek: (key) => evaluate(key, false),
    async reset(key) {
      await counters.deleteMany({ name, key });
    },
  };
}

// --- named limits with one enforce call -----------------------------------------------------------

export interface LimitSpec {
  max: number;
  windowMs: number;
  /** Default `fixed`; see StoreRateLimiterOptions.mode. */
  mode?: 'fixed' | 'sliding';
  /** Message of the 429 when the caller gives none. Default `Too many requests. Try again later.` */
  message?: string;
}

export interface Limits<K extends string> {
  /** Counts one hit for `key`; over the allowance → throws 429 with Retry-After and `message`. */
  enforce(name: K, key: string, message?: string): Promise<void>;
  /** Throws the same 429 when `key` is already over the allowance, without counting (throttles). */
  check(name: K, key: string, message?: string): Promise<void>;
  hit(name: K, key: string): Promise<RateLimitResult>;
  peek(name: K, key: string): Promise<RateLimitResult>;
  reset(name: K, key: string): Promise<void>;
  /** The underlying limiter, for code written against StoreRateLimiter. */
  limiter(name: K): StoreRateLimiter;
}

/**
 * A service's store-backed limits by name: `createLimits(store, clock, { signinPerIp: { max: 20,
 * windowMs: 3_600_000, mode: 'sliding' } })`, then `await limits.enforce('signinPerIp', ip)`.
 * Each name is its own counter (`name` in the ratelimits collection), shared by every replica.
 */
export function createLimits<K extends string>(
  store: Store,
  clock: Clock,
  specs: Record<K, LimitSpec>,
): Limits<K> {
  const limiters = new Map<string, { limiter: StoreRateLimiter; spec: LimitSpec }>();
  for (const [name, spec] of Object.entries(specs) as Array<[K, LimitSpec]>) {
    limiters.set(name, {
      spec,
      limiter: createStoreRateLimiter(store, {
        name,
        max: spec.max,
        windowMs: spec.windowMs,
        ...(spec.mode === undefined ? {} : { mode: spec.mode }),
        clock,
      }),
    });
  }
  const get = (name: K) => {
    const entry = limiters.get(name);
    if (!entry) throw new Error(`no limit named ${name}`);
    return entry;
  };
  const refuse = (result: RateLimitResult, spec: LimitSpec, message: string | undefined) => {
    if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, message ?? spec.message);
  };
  return {
    async enforce(name, key, message) {
      const { limiter, spec } = get(name);
      refuse(await limiter.hit(key), spec, message);
    },
    async check(name, key, message) {
      const { limiter, spec } = get(name);
      refuse(await limiter.peek(key), spec, message);
    },
    hit: (name, key) => get(name).limiter.hit(key),
    peek: (name, key) => get(name).limiter.peek(key),
    reset: (name, key) => get(name).limiter.reset(key),
    limiter: (name) => get(name).limiter,
  };
}

// --- failed-login throttle --------------------------------------------------------------------------

export interface LoginThrottleOptions {
  /** Failed logins per (login, client address) within `windowMs`. Default 10. */
  max?: number;
  /** Default 15 minutes. */
  windowMs?: number;
  /** Counter name. Default `failed-login`. */
  name?: string;
  clock?: Clock;
}

export const DEFAULT_FAILED_LOGINS = 10;
export const DEFAULT_FAILED_LOGIN_WINDOW_MS = 15 * 60_000;

export interface LoginThrottle {
  /** Throws 429 (Retry-After) while (login, ip) is over the limit, whatever the password. */
  check(login: string, ip: string): Promise<void>;
  /** Counts one failed login of (login, ip). */
  fail(login: string, ip: string): Promise<void>;
  /** Forgets (login, ip)'s failures. */
  reset(login: string, ip: string): Promise<void>;
}

/** The key of a login: trimmed and lower-cased, so `Ann` and ` ann` share one count. */
export function loginThrottleKey(login: string, ip: string): string {
  return `${login.trim().toLowerCase()}\u0000${ip}`;
}

/** Store-backed throttle of failed logins (HTTP Basic, XML-RPC): peek before verifying, hit on failure. */
export function createLoginThrottle(store: Store, options: LoginThrottleOptions = {}): LoginThrottle {
  const limiter = createStoreRateLimiter(store, {
    name: options.name ?? 'failed-login',
    max: options.max ?? DEFAULT_FAILED_LOGINS,
    windowMs: options.windowMs ?? DEFAULT_FAILED_LOGIN_WINDOW_MS,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    async check(login, ip) {
      const state = await limiter.peek(loginThrottleKey(login, ip));
      if (!state.allowed)
        throw tooManyRequests(state.retryAfterSeconds, 'Too many failed logins. Try again later.');
    },
    async fail(login, ip) {
      await limiter.hit(loginThrottleKey(login, ip));
    },
    reset: (login, ip) => limiter.reset(loginThrottleKey(login, ip)),
  };
}
