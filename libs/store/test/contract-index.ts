// Contract: unique (single, compound, sparse, multikey) and TTL indexes, integer counters, and what
// survives closing and reopening the store.
import { describe, expect, it } from '@jest/globals';
import { nextId, reserveIds } from '../src/counters.js';
import { DuplicateKeyError } from '../src/port.js';
import { itGuaranteed, type ContractContext, type ContractOptions } from './contract.js';

async function duplicate(write: Promise<unknown>): Promise<DuplicateKeyError> {
  const err = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DuplicateKeyError);
  return err as DuplicateKeyError;
}

export function defineIndexTests(ctx: ContractContext, options: ContractOptions): void {
  it('a unique index refuses a second value on insert and upsert, and can be created again', async () => {
    const users = ctx.store.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ _id: 1, email: 'a@example.com' });
    await users.insertOne({ _id: 2, email: 'b@example.com' });
    const err = await duplicate(users.insertOne({ _id: 3, email: 'a@example.com' }));
    expect(err.collection).toBe('users');
    await duplicate(
      users.updateOne({ email: 'c@example.com' }, { $set: { email: 'a@example.com' } }, { upsert: true }),
    );
    expect(await users.countDocuments()).toBe(2);
  });

  itGuaranteed(
    options,
    'duplicate-key-names-index',
    'a DuplicateKeyError names the index: by the name it was given, else its fields joined by _',
    async () => {
      const users = ctx.store.collection('named');
      await users.createIndex({ email: 1 }, { unique: true });
      await users.createIndex({ userId: 1, feedId: 1 }, { unique: true });
      await users.createIndex({ handle: 1 }, { unique: true, sparse: true, name: 'by_handle' });
      await users.insertOne({ _id: 1, email: 'a', userId: 1, feedId: 1, handle: 'h' });
      expect((await duplicate(users.insertOne({ _id: 2, email: 'a' }))).index).toBe('email');
      expect((await duplicate(users.insertOne({ _id: 3, userId: 1, feedId: 1 }))).index).toBe(
        'userId_feedId',
      );
      expect((await duplicate(users.insertOne({ _id: 4, handle: 'h' }))).index).toBe('by_handle');
    },
  );

  itGuaranteed(
    options,
    'unique-missing-as-null',
    'a non-sparse unique index counts a missing field as null',
    async () => {
      const plain = ctx.store.collection('plain');
      await plain.createIndex({ handle: 1 }, { unique: true, name: 'by_handle' });
      await plain.insertOne({ _id: 1 });
      await duplicate(plain.insertOne({ _id: 2 }));
      await duplicate(plain.insertOne({ _id: 3, handle: null }));
      expect(await plain.countDocuments()).toBe(1);
    },
  );

  it('a sparse unique index skips documents without its field', async () => {
    const sparse = ctx.store.collection('sparse');
    await sparse.createIndex({ handle: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3, handle: 'h' }]);
    await duplicate(sparse.insertOne({ _id: 4, handle: 'h' }));
    expect(await sparse.countDocuments()).toBe(3);
  });

  it('a compound unique index refuses the same tuple on insert and upsert', async () => {
    const subs = ctx.store.collection('subscriptions');
    await subs.createIndex({ userId: 1, feedId: 1 }, { unique: true });
    await subs.insertMany([
      { _id: 1, userId: 1, feedId: 1 },
      { _id: 2, userId: 1, feedId: 2 },
      { _id: 3, userId: 2, feedId: 1 },
    ]);
    await duplicate(subs.insertOne({ _id: 4, userId: 1, feedId: 1 }));
    await duplicate(subs.updateOne({ _id: 9 }, { $set: { userId: 2, feedId: 1 } }, { upsert: true }));
    expect(await subs.countDocuments()).toBe(3);
    await subs.insertOne({ _id: 5, userId: 2, feedId: 2 });
  });

  itGuaranteed(
    options,
    'update-duplicate-key',
    'an update that would repeat a unique value or tuple throws DuplicateKeyError and changes nothing',
    async () => {
      const users = ctx.store.collection('users');
      await users.createIndex({ email: 1 }, { unique: true });
      await users.insertMany([
        { _id: 1, email: 'a@example.com' },
        { _id: 2, email: 'b@example.com' },
      ]);
      await duplicate(users.updateOne({ _id: 2 }, { $set: { email: 'a@example.com' } }));
      await duplicate(users.updateMany({ _id: { $gte: 2 } }, { $set: { email: 'a@example.com' } }));
      expect(await users.findOne({ _id: 2 })).toEqual({ _id: 2, email: 'b@example.com' });
      const subs = ctx.store.collection('subscriptions');
      await subs.createIndex({ userId: 1, feedId: 1 }, { unique: true });
      await subs.insertMany([
        { _id: 1, userId: 1, feedId: 1 },
        { _id: 2, userId: 1, feedId: 2 },
        { _id: 3, userId: 2, feedId: 1 },
      ]);
      await duplicate(subs.updateOne({ _id: 2 }, { $set: { feedId: 1 } }));
      await duplicate(subs.findOneAndUpdate({ _id: 3 }, { $set: { userId: 1 } }));
      expect(await subs.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 1, userId: 1, feedId: 1 },
        { _id: 2, userId: 1, feedId: 2 },
        { _id: 3, userId: 2, feedId: 1 },
      ]);
    },
  );

  itGuaranteed(
    options,
    'sparse-compound-unique',
    'a sparse compound unique index skips documents that have none of its fields',
    async () => {
      const c = ctx.store.collection('sparse_pairs');
      await c.createIndex({ a: 1, b: 1 }, { unique: true, sparse: true });
      await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3, a: 1 }]);
      await duplicate(c.insertOne({ _id: 4, a: 1 }));
      await c.insertOne({ _id: 5, a: 1, b: 2 });
      expect(await c.countDocuments()).toBe(4);
    },
  );

  itGuaranteed(
    options,
    'multikey-unique',
    'a unique index over an array field refuses an element another document has',
    async () => {
      const c = ctx.store.collection('aliases');
      await c.createIndex({ names: 1 }, { unique: true });
      await c.insertMany([
        { _id: 1, names: ['a', 'b'] },
        { _id: 2, names: ['c'] },
      ]);
      await duplicate(c.insertOne({ _id: 3, names: ['d', 'b'] }));
      await c.updateOne({ _id: 1 }, { $pull: { names: 'b' } });
      await c.insertOne({ _id: 3, names: ['d', 'b'] });
    },
  );

  it('creating a unique index over existing duplicates fails and leaves no index behind', async () => {
    const c = ctx.store.collection('late');
    await c.insertMany([
      { _id: 1, k: 'x' },
      { _id: 2, k: 'x' },
    ]);
    await expect(c.createIndex({ k: 1 }, { unique: true })).rejects.toThrow();
    await c.insertOne({ _id: 3, k: 'x' });
    expect(await c.countDocuments({ k: 'x' })).toBe(3);
  });

  itGuaranteed(
    options,
    'unique-build-duplicate-key',
    'creating a unique index over existing duplicates throws DuplicateKeyError',
    async () => {
      const c = ctx.store.collection('late_error');
      await c.insertMany([
        { _id: 1, k: 'x' },
        { _id: 2, k: 'x' },
      ]);
      await duplicate(c.createIndex({ k: 1 }, { unique: true }));
    },
  );

  it('non-unique and TTL indexes are accepted (again) and keep documents that have not expired', async () => {
    const c = ctx.store.collection('sessions');
    for (let i = 0; i < 2; i++) {
      await c.createIndex({ userId: 1, at: -1 });
      await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    }
    await c.insertMany([
      { _id: 1, userId: 1, expiresAt: new Date(Date.now() + 3_600_000) },
      { _id: 2, userId: 1 },
      { _id: 3, userId: 2, expiresAt: 'not a date' },
    ]);
    expect(await c.countDocuments({ userId: 1 })).toBe(2);
    expect(await c.countDocuments()).toBe(3);
  });

  itGuaranteed(
    options,
    'ttl-expiry',
    'a document past its TTL is gone eventually (not necessarily at once); one not yet expired stays',
    async () => {
      const c = ctx.store.collection('codes');
      await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
      await c.insertMany([
        { _id: 'old', expiresAt: new Date(Date.now() - 1000) },
        { _id: 'later', expiresAt: new Date(Date.now() + 3_600_000) },
      ]);
      const deadline = Date.now() + options.ttlDeletedWithinMs;
      while ((await c.countDocuments({ _id: 'old' })) > 0) {
        if (Date.now() > deadline)
          throw new Error(`expired document still there after ${options.ttlDeletedWithinMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await c.find({})).toEqual([{ _id: 'later', expiresAt: expect.any(Date) }]);
    },
    options.ttlDeletedWithinMs + 30_000,
  );

  it('createIndex with sparse added replaces the unique index instead of failing', async () => {
    const c = ctx.store.collection('upgraded');
    await c.createIndex({ handle: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, handle: 'ada' },
      { _id: 6, handle: 'cy' },
    ]);
    // The next release declares it differently: start-up must go on, with the new options in force.
    await c.createIndex({ handle: 1 }, { unique: true, sparse: true });
    await c.createIndex({ handle: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ _id: 2 }, { _id: 3 }]);
    await duplicate(c.insertOne({ _id: 4, handle: 'cy' }));
    expect((await c.find({ handle: { $exists: false } }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual([
      2, 3,
    ]);
  });

  itGuaranteed(
    options,
    'ttl-expiry',
    'createIndex with a changed TTL applies it instead of failing',
    async () => {
      const c = ctx.store.collection('retimed');
      await c.createIndex({ seenAt: 1 }, { expireAfterSeconds: 3600 });
      await c.insertMany([
        { _id: 1, seenAt: new Date() },
        { _id: 5, seenAt: new Date(Date.now() - 60_000) },
        { _id: 6 },
      ]);
      await c.createIndex({ seenAt: 1 }, { expireAfterSeconds: 1 });
      const deadline = Date.now() + options.ttlDeletedWithinMs + 2000;
      while ((await c.countDocuments({ _id: 1 })) > 0) {
        if (Date.now() > deadline) throw new Error('the shortened TTL did not take effect');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await c.find({})).map((d) => d._id)).toEqual([6]);
    },
    options.ttlDeletedWithinMs + 30_000,
  );

  it('queries an index can narrow return exactly what a scan of an unindexed twin returns', async () => {
    const indexed = ctx.store.collection('narrowed');
    const plain = ctx.store.collection('scanned');
    await indexed.createIndex({ status: 1, type: 1, runAt: 1 });
    await indexed.createIndex({ key: 1 }, { unique: true, sparse: true });
    await indexed.createIndex({ tags: 1, n: -1 });
    const t = (s: number) => new Date(1_700_000_000_000 + s * 1000);
    const docs = [];
    for (let i = 0; i < 60; i++) {
      docs.push({
        _id: i,
        status: ['queued', 'running', 'done'][i % 3],
        type: i % 4 === 0 ? 'mail' : 'fetch',
        runAt: i % 7 === 0 ? [t(i), t(i + 100)] : t(i),
        ...(i % 5 === 0 ? { key: `k${i}` } : i === 11 ? { key: null } : {}),
        tags: i % 2 ? ['a', 'b'] : i % 9 === 0 ? [] : 'a',
        n: i % 6 === 0 ? -0 : i % 10,
      });
    }
    await indexed.insertMany(docs.map((d) => ({ ...d })));
    await plain.insertMany(docs.map((d) => ({ ...d })));
    const queries: [Record<string, unknown>, Record<string, unknown>?][] = [
      [{ status: 'queued' }],
      [
        { status: 'queued', type: 'fetch', runAt: { $lte: t(30) } },
        { sort: { runAt: 1 }, limit: 3 },
      ],
      [{ status: 'queued', type: 'fetch', runAt: { $gt: t(10), $lt: t(40) } }, { sort: { runAt: -1 } }],
      [{ status: { $in: ['queued', 'done'] }, type: 'mail' }, { sort: { _id: 1 } }],
      [
        { status: 'done', type: 'fetch', runAt: { $gte: t(9) } },
        { sort: { runAt: -1 }, skip: 1, limit: 2 },
      ],
      [{ status: 'running', runAt: { $lt: t(50) } }],
      // Doc 21's runAt is [t(21), t(121)]: it sorts by t(21), outside the range.
      [
        { status: 'queued', type: 'fetch', runAt: { $gte: t(30) } },
        { sort: { runAt: 1 }, limit: 2 },
      ],
      [{ key: 'k10' }],
      [{ key: null }],
      [{ key: { $in: ['k5', null] } }],
      [{ tags: 'b', n: { $gte: 5 } }],
      [{ tags: 'a', n: 0 }],
      [{ tags: { $in: ['b'] } }, { sort: { n: -1, _id: 1 }, limit: 4 }],
      [{ status: 'queued', type: 'fetch', runAt: { $lte: 'not a date' } }],
    ];
    for (const [filter, opts] of queries) {
      const ids = async (c: typeof plain) => (await c.find(filter, opts)).map((d) => d._id);
      const sorted = (a: unknown[]) => (opts?.sort ? a : [...a].sort());
      expect({ filter, got: sorted(await ids(indexed)) }).toEqual({ filter, got: sorted(await ids(plain)) });
      expect(await indexed.countDocuments(filter)).toBe(await plain.countDocuments(filter));
    }
  });

  describe('nextId', () => {
    it('hands out 1, 2, 3, … per counter name', async () => {
      expect(await nextId(ctx.store, 'posts')).toBe(1);
      expect(await nextId(ctx.store, 'posts')).toBe(2);
      expect(await nextId(ctx.store, 'feeds')).toBe(1);
      expect(await nextId(ctx.store, 'posts')).toBe(3);
    });

    it('never hands out the same id to 200 parallel callers', async () => {
      const ids = await Promise.all(Array.from({ length: 200 }, () => nextId(ctx.store, 'entries')));
      expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    });
    it('reserves consecutive blocks that never overlap single ids or each other', async () => {
      const got = await Promise.all([
        reserveIds(ctx.store, 'items', 5),
        nextId(ctx.store, 'items').then((id) => [id]),
        reserveIds(ctx.store, 'items', 3),
      ]);
      for (const block of got) expect(block).toEqual(block.map((_, i) => block[0]! + i));
      expect(got.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));
      await expect(reserveIds(ctx.store, 'items', 0)).rejects.toThrow(RangeError);
    });
  });

  if (!options.persistent) return;

  it('data, unique and compound indexes and counters survive close and reopen', async () => {
    const users = ctx.store.collection('users');
    const subs = ctx.store.collection('subscriptions');
    await users.createIndex({ email: 1 }, { unique: true });
    await subs.createIndex({ userId: 1, feedId: 1 }, { unique: true });
    await users.insertOne({ _id: 1, email: 'a@example.com', joined: new Date(1234) });
    await subs.insertOne({ _id: 1, userId: 1, feedId: 7 });
    await users.updateOne({ _id: 1 }, { $set: { name: 'Ada' } });
    await nextId(ctx.store, 'posts');

    const store = await ctx.reopen();
    const users2 = store.collection('users');
    const subs2 = store.collection('subscriptions');
    expect(await users2.findOne({ _id: 1 })).toStrictEqual({
      _id: 1,
      email: 'a@example.com',
      joined: new Date(1234),
      name: 'Ada',
    });
    await duplicate(users2.insertOne({ _id: 2, email: 'a@example.com' }));
    await duplicate(subs2.insertOne({ _id: 2, userId: 1, feedId: 7 }));
    await subs2.insertOne({ _id: 3, userId: 1, feedId: 8 });
    expect(await nextId(store, 'posts')).toBe(2);
  });
}
