// The process's clock. Services receive one in their ServiceContext (systemClock unless a test injects
// a TestClock), and hand it to whatever reads the time: rate limiters, the job queue, the
// authenticator's caches. Nothing that decides about time should call Date.now() on its own.

export interface Clock {
  /** The current instant. */
  now(): Date;
  /** The current instant in milliseconds since the epoch. */
  nowMs(): number;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
};

// Reader `created_at` values come from this clock: entries stored in one burst
// still get distinct, increasing times. It reads the wall clock, like the `Date` header clients echo
// back as `since`, so the two never disagree by more than the bursts it absorbs.
export class MicrosecondClock {
  private last = 0n;

  constructor(private readonly wallClockMs: () => number = Date.now) {}

  /** Microseconds since the epoch: the wall clock, or the previous value + 1 when that is later. */
  now(): bigint {
    const wall = BigInt(Math.floor(this.wallClockMs())) * 1000n;
    this.last = wall > this.last ? wall : this.last + 1n;
    return this.last;
  }
}
