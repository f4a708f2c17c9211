// Integer identifiers (docs/adr/0001-store.md): the interface numbers entries, feeds, posts, … so each service
// keeps one counter document per name in its own `counters` collection.
import { DuplicateKeyError, type Store } from './port.js';

type Counter = { _id: string; seq: number };

/** 1, 2, 3, … per counter name; concurrent callers (in any process) never get the same number. */
export async function nextId(store: Store, name: string): Promise<number> {
  const [id] = await reserveIds(store, name, 1);
  return id!;
}

/**
 * `count` consecutive numbers of the named counter in one write (a batch of entries takes its ids at
 * once); the same documents `nextId` uses.
 */
export async function reserveIds(store: Store, name: string, count: number): Promise<number[]> {
  if (!(Number.isInteger(count) && count >= 1)) throw new RangeError('count must be a positive integer');
  const counters = store.collection<Counter>('counters');
  // Two first-ever upserts of one counter can race on MongoDB (both miss, one insert loses on _id);
  // the loser simply increments the document the winner created.
  for (let attempt = 1; ; attempt++) {
    try {
      const counter = await counters.findOneAndUpdate(
        { _id: name },
        { $inc: { seq: count } },
        { upsert: true, returnDocument: 'after' },
      );
      if (!counter) throw new Error(`counter ${name} was not returned`);
      return Array.from({ length: count }, (_, i) => counter.seq - count + 1 + i);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError) || attempt >= 3) throw err;
    }
  }
}
