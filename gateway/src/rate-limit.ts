// The per-IP rate limit: GATEWAY_RATE_LIMIT_PER_MINUTE requests per client address in a fixed window of
// a minute that starts with the address's first request (as @fastify/rate-limit's local store counted
// before). One counter serves both ways in: the Fastify hook (app.ts) and the fast lane
// (fast-lane.ts), so a request is counted once whichever way it takes.
import type { IncomingMessage } from 'node:http';

/** Addresses remembered at once; past this the oldest windows are forgotten (their allowance restarts). */
const MAX_ADDRESSES = 10_000;

/** Set on a request the fast lane has already counted and found over the limit: seconds to wait. */
export const kOverLimit = Symbol('murmur.gateway.overLimit');
type CountedRequest = IncomingMessage & { [kOverLimit]?: number };

export class IpRateLimit {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(
    readonly max: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request from `address`: null while within the allowance, else seconds until it renews. */
  hit(address: string): number | null {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(address);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(address);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(address, window);
      if (this.windows.size > MAX_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count++;
    return window.count > this.max ? Math.max(1, Math.ceil((window.resetAt - now) / 1000)) : null;
  }

  /** Marks a request the fast lane counted and found over the limit, for the hook to answer. */
  static markOver(req: IncomingMessage, seconds: number): void {
    (req as CountedRequest)[kOverLimit] = seconds;
  }

  /** The hook's count: the fast lane's verdict when it already counted the request, else a new hit. */
  hitOnce(req: IncomingMessage, address: string): number | null {
    const marked = (req as CountedRequest)[kOverLimit];
    return marked !== undefined ? marked : this.hit(address);
  }

  private sweep(now: number): void {
    for (const [address, window] of this.windows) if (window.resetAt <= now) this.windows.delete(address);
    this.nextSweep = now + this.windowMs;
  }
}
