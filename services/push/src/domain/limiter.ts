// At most `max` tasks at once, the others wait in arrival order: the APNs streams in flight per
// process (PUSH_DELIVERY_CONCURRENCY), whichever delivery jobs they belong to.
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot goes straight to the next waiter, or back to the pool.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
