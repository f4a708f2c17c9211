// The SQLite embedded store runs every write of one turn of the event loop in one transaction, each
// write in a savepoint of its own, committed at the end of the turn before the group fsync starts
// (libs/store-embedded/src/sqlite-file.ts, docs/adr/0017-embedded-store-sqlite.md). Shown by counting
// the COMMITs through the test hook, recording the order of commit, fsync and acknowledgement, and
// making a COMMIT fail.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DuplicateKeyError, type Store } from '@murmur/store';
import { sqliteTestHooks } from '../src/sqlite-file.js';
import { turns, useScratchStore } from './hold-fsyncs.js';

const scratch = useScratchStore('murmur-turn-tx-');
let store: Store;
let commits = 0;
let events: string[] = [];

beforeEach(() => {
  commits = 0;
  events = [];
  sqliteTestHooks.beforeCommit = () => {
    commits += 1;
    events.push('commit');
  };
});

afterEach(() => {
  sqliteTestHooks.beforeCommit = undefined;
});

const open = () => scratch.open();

type Post = {
  _id: string;
  n?: number;
};

describe('one SQLite transaction per turn of the event loop', () => {
  it('commits the writes of one turn once; a write that fails is undone alone', async () => {
    store = await open();
    const posts = store.collection<Post>('posts');
    const jobs = store.collection<Post>('jobs');
    const counters = store.collection<Post>('counters', { durability: 'relaxed' });
    await posts.insertOne({ _id: 'taken' });
    commits = 0;

    const results = await Promise.allSettled([
      posts.insertOne({ _id: 'a' }),
      posts.insertOne({ _id: 'taken' }),
      jobs.insertOne({ _id: 'j' }),
      counters.findOneAndUpdate({ _id: 'c' }, { $inc: { n: 1 } }, { upsert: true }),
      // Ordered: 'm1' stands, 'taken' fails, 'm2' is not inserted.
      posts.insertMany([{ _id: 'm1' }, { _id: 'taken' }, { _id: 'm2' }]),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
    expect((results[4] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
    expect(commits).toBe(1);

    await store.close();
    store = await open();
    const ids = (await store.collection<Post>('posts').find({}, { sort: { _id: 1 } })).map((d) => d._id);
    expect(ids).toEqual(['a', 'm1', 'taken']);
    expect(await store.collection<Post>('jobs').countDocuments()).toBe(1);
    expect(await store.collection<Post>('counters').findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 1 });
  });

  it('acknowledges a durable write after its commit and an fsync that started after it', async () => {
    store = await open();
    const posts = store.collection<Post>('posts');
    const other = store.collection<Post>('other');
    await posts.insertOne({ _id: 'warm' });
    await other.insertOne({ _id: 'warm' });
    // Records when each (held) datasync is asked for.
    const datasync = await scratch.hold(() => events.push('fsync'));
    events = [];
    // A write that changes nothing asks for the fsync first in this turn; the insert opens the
    // transaction after it (microtasks later, the same turn): its commit must still come first.
    const nothing = other.updateOne({ _id: 'none' }, { $set: { n: 1 } }).then(() => events.push('ack-none'));
    for (let i = 0; i < 100; i++) await null;
    const insert = posts.insertOne({ _id: 'a' }).then(() => events.push('ack-a'));
    await turns(10);
    // Committed, readable, not acknowledged: the fsync that started after the commit is held.
    expect(events).toEqual(['commit', 'fsync']);
    expect(await posts.findOne({ _id: 'a' })).toEqual({ _id: 'a' });
    expect(datasync.count).toBe(1);
    datasync.release();
    await Promise.all([nothing, insert]);
    expect(events.slice(0, 2)).toEqual(['commit', 'fsync']);
    expect(events.slice(2).sort()).toEqual(['ack-a', 'ack-none']);
  });

  it('rejects every write of a turn whose COMMIT fails, and then refuses writes until a restart', async () => {
    store = await open();
    const posts = store.collection<Post>('posts');
    const counters = store.collection<Post>('counters', { durability: 'relaxed' });
    await posts.insertOne({ _id: 'before' });
    await counters.insertOne({ _id: 'before' });
    sqliteTestHooks.beforeCommit = () => {
      throw new Error('disk full (simulated)');
    };

    const results = await Promise.allSettled([
      posts.insertOne({ _id: 'lost' }),
      posts.insertMany([{ _id: 'm1' }, { _id: 'before' }]),
      counters.findOneAndUpdate({ _id: 'c' }, { $inc: { n: 1 } }, { upsert: true }),
      posts.createIndex({ n: 1 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/commit failed, restart the store/);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/commit failed, restart the store/);
    sqliteTestHooks.beforeCommit = undefined;
    await expect(posts.insertOne({ _id: 'after' })).rejects.toThrow(/restart the store/);
    await expect(counters.insertOne({ _id: 'after' })).rejects.toThrow(/restart the store/);

    await store.close();
    store = await open();
    const ids = (await store.collection<Post>('posts').find({})).map((d) => d._id);
    expect(ids).toEqual(['before']);
    expect((await store.collection<Post>('counters').find({})).map((d) => d._id)).toEqual(['before']);
    await store.collection<Post>('posts').insertOne({ _id: 'again' });
    expect(await store.collection<Post>('posts').countDocuments()).toBe(2);
  });

  it('acknowledges a relaxed write at its commit, without waiting for the fsync', async () => {
    store = await open();
    const counters = store.collection<Post>('counters', { durability: 'relaxed' });
    await counters.insertOne({ _id: 'warm' });
    const held = await scratch.hold();
    events = [];
    await counters.insertOne({ _id: 'c' });
    events.push('ack');
    expect(events).toEqual(['commit', 'ack']);
    expect(held.count).toBe(0);
  });

  it('commits a lazy read cut short and the writes of its turn (no iterator left open)', async () => {
    store = await open();
    const posts = store.collection<Post & { at: number }>('posts');
    await posts.createIndex({ at: -1 });
    await posts.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `p${i}`, at: i })));
    commits = 0;
    const [latest, , all] = await Promise.all([
      posts.find({ at: { $gte: 0 } }, { sort: { at: -1 }, limit: 2 }),
      posts.insertOne({ _id: 'new', at: 100 }),
      posts.findOne({}),
    ]);
    expect(latest.map((d) => d.at)).toEqual([49, 48]);
    expect(all).not.toBeNull();
    expect(commits).toBe(1);
    await posts.insertOne({ _id: 'next', at: 101 });
    expect(commits).toBe(2);
  });

  it('commits a large update once per turn of its batches, other writes joining them', async () => {
    store = await open();
    const posts = store.collection<Post>('posts');
    const jobs = store.collection<Post>('jobs');
    await posts.insertMany(Array.from({ length: 450 }, (_, i) => ({ _id: `p${i}`, n: 0 })));
    commits = 0;
    const [updated] = await Promise.all([
      posts.updateMany({}, { $set: { n: 1 } }),
      jobs.insertOne({ _id: 'j' }),
    ]);
    expect(updated.modifiedCount).toBe(450);
    // Three batches of at most 200 documents, each in its own turn, so its own commit.
    expect(commits).toBeGreaterThanOrEqual(3);
    await store.close();
    store = await open();
    expect(await store.collection<Post>('posts').countDocuments({ n: 1 })).toBe(450);
    expect(await store.collection<Post>('jobs').countDocuments()).toBe(1);
  });

  it('close() commits a transaction still open', async () => {
    store = await open();
    const counters = store.collection<Post>('counters', { durability: 'relaxed' });
    await counters.insertOne({ _id: 'warm' });
    const write = counters.insertOne({ _id: 'c' });
    const closed = store.close();
    await write;
    await closed;
    store = await open();
    expect(await store.collection<Post>('counters').countDocuments()).toBe(2);
  });
});
