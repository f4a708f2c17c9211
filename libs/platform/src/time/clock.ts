// Reader `created_at` values come from this clock (formats.md §5): entries stored in one burst still
// get distinct, increasing times. It reads the wall clock, like the `Date` header clients echo back
// as `since`, so the two never disagree by more than the bursts it absorbs.

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
