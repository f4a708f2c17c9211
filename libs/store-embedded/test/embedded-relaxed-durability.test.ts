// A relaxed collection (CollectionOptions.durability, used for rate-limit counters) acknowledges a
// write once it is applied, without waiting for the disk's flush; a durable one waits for it. Shown
// by holding every fsync of the process back: the relaxed write is acknowledged and readable while the
// flush is held, the durable write is acknowledged only once it is let go.
import { describe, expect, it } from '@jest/globals';
import { turns, useScratchStore } from './hold-fsyncs.js';

const scratch = useScratchStore('murmur-relaxed-');

describe('relaxed durability on the embedded store', () => {
  it('acknowledges a relaxed write while the flush is held, a durable write only after it', async () => {
    const store = await scratch.open();
    const counters = store.collection<{ _id: string; n: number }>('counters-relaxed', {
      durability: 'relaxed',
    });
    const posts = store.collection<{ _id: string; title: string }>('posts-durable');
    // Create the files (and the SQLite tables) before holding the flushes.
    await counters.insertOne({ _id: 'warm', n: 0 });
    await posts.insertOne({ _id: 'warm', title: 'warm' });

    const held = await scratch.hold();
    await counters.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }, { upsert: true });
    expect(await counters.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });

    let acknowledged = false;
    const durable = posts.insertOne({ _id: 'p1', title: 'kept' }).then(() => (acknowledged = true));
    await turns(20);
    expect(acknowledged).toBe(false);
    held.release();
    await durable;
    expect(acknowledged).toBe(true);
    expect(await posts.findOne({ _id: 'p1' })).toEqual({ _id: 'p1', title: 'kept' });
  });

  it('a collection asked for as relaxed after someone opened it durable is relaxed from then on', async () => {
    const store = await scratch.open();
    // Another part of the service (a library's id helper) opened it first, without options.
    const first = store.collection<{ _id: string; n: number }>('counters');
    await first.insertOne({ _id: 'warm', n: 0 });
    const counters = store.collection<{ _id: string; n: number }>('counters', { durability: 'relaxed' });

    const held = await scratch.hold();
    let acknowledged = false;
    const write = counters
      .findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }, { upsert: true })
      .then(() => (acknowledged = true));
    await turns(20);
    expect(acknowledged).toBe(true);
    held.release();
    await write;
  });
});
