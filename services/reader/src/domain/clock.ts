// The one clock of the reader process, built on the platform's injected clock (ServiceContext.clock):
// it stamps `created_at` of entries and subscriptions and writes the `Date` header, because
// NetNewsWire sends the previous response's `Date` back as `since`.
//
// An entry stamped at t but not yet stored must not be skipped by a client whose `since` is a `Date`
// written meanwhile. So while a batch of entries is being stored, `Date` reports a time before the
// earliest stamp of that batch (within this process; replicas' clocks are as good as NTP makes them).
import { MicrosecondClock, type Clock } from '@murmur/core';

export class ReaderClock {
  private readonly micros: MicrosecondClock;
  private readonly pending = new Map<number, bigint>();
  private nextToken = 1;
  private tail: Promise<void> = Promise.resolve();

  /** `wall` is the process's clock (ServiceContext.clock): tests move it with a TestClock. */
  constructor(readonly wall: Clock) {
    this.micros = new MicrosecondClock(() => wall.nowMs());
  }

  /** Microseconds: later than every value this clock returned before. */
  now(): bigint {
    return this.micros.now();
  }

  nowDate(): Date {
    return this.wall.now();
  }

  /** The instant to write as `Date`: now, or just before the earliest stamp still being stored. */
  dateHeaderMicros(): bigint {
    let at = this.micros.now();
    for (const floor of this.pending.values()) if (floor - 1n < at) at = floor - 1n;
    return at;
  }

  /**
   * Reserves `count` ids and stamps them, one batch at a time (so ids and `created_at` increase
   * together), then runs `store`; storing may overlap other batches. Until `store` settles, `Date`
   * stays before these stamps.
   */
  async stampBatch<R>(
    count: number,
    reserve: (count: number) => Promise<number[]>,
    store: (ids: number[], times: bigint[]) => Promise<R>,
  ): Promise<R> {
    const token = this.nextToken++;
    this.pending.set(token, this.micros.now());
    try {
      const previous = this.tail;
      let release!: () => void;
      this.tail = new Promise<void>((resolve) => (release = resolve));
      let ids: number[];
      let times: bigint[];
      try {
        await previous;
        ids = await reserve(count);
        times = ids.map(() => this.micros.now());
      } finally {
        release();
      }
      return await store(ids, times);
    } finally {
      this.pending.delete(token);
    }
  }
}
