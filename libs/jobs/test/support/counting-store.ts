// A store seen as another kind of store, counting the findOneAndUpdate calls made on its collections:
// how the job queue's and the outbox relay's idle-poll tests see how often a poller looks.
import type { Collection, Store } from '@murmur/store';

/** `inner` reported as `kind`; `counted.calls` counts findOneAndUpdate on its collections (`only` that one, if given). */
export function countingFindOneAndUpdate(inner: Store, kind: Store['kind'], only?: string) {
  const counted = { calls: 0 };
  const store: Store = {
    kind,
    collection: ((name: string, options?: Parameters<Store['collection']>[1]) => {
      const collection = inner.collection(name, options);
      if (only !== undefined && name !== only) return collection;
      return new Proxy(collection, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key !== 'findOneAndUpdate' || typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            counted.calls++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as Collection;
    }) as Store['collection'],
    ping: () => inner.ping(),
    // The test closes `inner` itself.
    close: async () => undefined,
  };
  return { store, counted };
}

/** The calls each of `counted` saw during the next `ms` milliseconds. */
export async function callsDuring(ms: number, ...counted: Array<{ calls: number }>): Promise<number[]> {
  const before = counted.map((c) => c.calls);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return counted.map((c, i) => c.calls - before[i]!);
}
