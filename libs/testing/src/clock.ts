// A clock tests move by hand. It starts at the wall clock (or a given instant) and only moves when
// told, so "after 15 minutes" needs no waiting.
import type { Clock } from '@murmur/core';

export class TestClock implements Clock {
  private ms: number;

  constructor(start: Date | number = Date.now()) {
    this.ms = typeof start === 'number' ? start : start.getTime();
  }

  // Bound, so `clock.now` can be handed over as a plain function (`() => Date`).
  readonly now = (): Date => new Date(this.ms);

  readonly nowMs = (): number => this.ms;

  /** Moves forward by `ms` (negative moves back). */
  advance(ms: number): void {
    this.ms += ms;
  }

  set(at: Date | number): void {
    this.ms = typeof at === 'number' ? at : at.getTime();
  }
}

/**
 * Waits until `check` yields a value other than undefined (events and jobs run on their own
 * schedule); checks every `intervalMs`. A check that throws is retried until the deadline, then the
 * last error is thrown.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let lastError: unknown;
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      if (lastError !== undefined) throw lastError;
      throw new Error(`condition not met within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
