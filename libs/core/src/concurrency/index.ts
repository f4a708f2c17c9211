// At most `max` tasks at once per key; the others wait in arrival order and each freed slot passes
// straight to the next waiter. The reader's politeness (requests in flight per host) and push's APNs
// streams in flight per process (one key) both use it.
export class ConcurrencyLimit {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly max: number) {}

  /** Runs `task` once fewer than `max` tasks of `key` are running. */
  async run<T>(task: () => Promise<T>, key = ''): Promise<T> {
    await this.acquire(key);
    try {
      return await task();
    } finally {
      this.release(key);
    }
  }

  private acquire(key: string): Promise<void> {
    const n = this.active.get(key) ?? 0;
    if (n < this.max) {
      this.active.set(key, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push(resolve);
      this.waiting.set(key, queue);
    });
  }

  private release(key: string): void {
    const queue = this.waiting.get(key);
    const next = queue?.shift();
    if (next) {
      // The slot passes straight to the next waiter; the count stays the same.
      if (queue!.length === 0) this.waiting.delete(key);
      next();
      return;
    }
    const n = (this.active.get(key) ?? 1) - 1;
    if (n <= 0) this.active.delete(key);
    else this.active.set(key, n);
  }
}
