/** Runs async tasks one after another: the embedded adapter's per-collection write lock. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  drain(): Promise<void> {
    return this.run(async () => undefined);
  }
}
