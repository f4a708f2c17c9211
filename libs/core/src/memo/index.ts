// Remembered answers of a pure function (a signature, a route lookup, a folded word), at most `limit` of
// them. When a new answer would go past the limit the memo is emptied and starts again: no per-entry
// age to keep on the hot path, and the keys a workload asks for again come back within a few calls.
// A client that invents keys thus costs the process at most `limit` entries.

export class BoundedMemo<K, V> {
  private readonly answers = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('a memo needs a limit of at least 1');
  }

  /** The answer remembered for `key`, or undefined. */
  get(key: K): V | undefined {
    return this.answers.get(key);
  }

  /** Remembers `value` for `key`, emptying the memo first when it is full. */
  set(key: K, value: V): void {
    if (this.answers.size >= this.limit && !this.answers.has(key)) this.answers.clear();
    this.answers.set(key, value);
  }

  /** The answer for `key`: remembered, or `compute(key)`'s, then remembered. */
  answer(key: K, compute: (key: K) => V): V {
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    this.set(key, value);
    return value;
  }

  get size(): number {
    return this.answers.size;
  }
}
