// Contract: update operators, upserts, findOneAndUpdate (atomicity included), deletes.
import { expect, it } from '@jest/globals';
import { itGuaranteed, type ContractContext, type ContractOptions } from './contract.js';

export function defineWriteTests(ctx: ContractContext, options: ContractOptions): void {
  it('applies every update operator with MongoDB meaning', async () => {
    const c = ctx.store.collection('ops');
    await c.insertOne({
      _id: 'u',
      n: 1,
      log: ['a'],
      set: ['x'],
      nums: [1, 2, 3, 2],
      low: 5,
      high: 5,
      when: new Date(2000),
      gone: true,
    });
    const r = await c.updateOne(
      { _id: 'u' },
      {
        $set: { 'profile.name': 'x' },
        $unset: { gone: '' },
        $inc: { n: 2, fresh: 3 },
        $push: { log: { $each: ['b', 'c'] } },
        $addToSet: { set: { $each: ['x', 'y'] } },
        $pull: { nums: 2 },
        $min: { low: 3, when: new Date(1000) },
        $max: { high: 4 },
      },
    );
    expect(r).toEqual({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ _id: 'u' })).toStrictEqual({
      _id: 'u',
      n: 3,
      log: ['a', 'b', 'c'],
      set: ['x', 'y'],
      nums: [1, 3],
      low: 3,
      high: 5,
      when: new Date(1000),
      profile: { name: 'x' },
      fresh: 3,
    });
  });

  it('creates missing arrays and keeps sets free of duplicates', async () => {
    const c = ctx.store.collection('arrays');
    await c.insertOne({ _id: 1, tags: ['a'] });
    await c.updateOne({ _id: 1 }, { $push: { fresh: 'new' }, $addToSet: { tags: 'a' } });
    await c.updateOne({ _id: 1 }, { $pull: { missing: 'x' }, $push: { recent: { $each: [1, 2, 3] } } });
    expect(await c.findOne({ _id: 1 })).toStrictEqual({
      _id: 1,
      tags: ['a'],
      fresh: ['new'],
      recent: [1, 2, 3],
    });
  });

  itGuaranteed(options, 'pull-by-condition', 'pulls by condition and by document', async () => {
    const c = ctx.store.collection('pulls');
    await c.insertOne({
      _id: 1,
      scores: [1, 5, 7, 2],
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 2 },
      ],
    });
    await c.updateOne({ _id: 1 }, { $pull: { scores: { $gte: 5 }, items: { sku: 'a' } } });
    expect(await c.findOne({ _id: 1 })).toStrictEqual({
      _id: 1,
      scores: [1, 2],
      items: [{ sku: 'b', qty: 2 }],
    });
  });

  itGuaranteed(options, 'push-slice', 'pushes with $slice, keeping the newest elements', async () => {
    const c = ctx.store.collection('slices');
    await c.insertOne({ _id: 1, recent: [0] });
    await c.updateOne({ _id: 1 }, { $push: { recent: { $each: [1, 2, 3], $slice: -2 } } });
    await c.updateOne({ _id: 2 }, { $push: { recent: { $each: [1, 2, 3], $slice: -2 } } }, { upsert: true });
    expect(await c.find({}, { sort: { _id: 1 } })).toStrictEqual([
      { _id: 1, recent: [2, 3] },
      { _id: 2, recent: [2, 3] },
    ]);
  });

  it('counts a document as modified only when the update changed it', async () => {
    const c = ctx.store.collection('same');
    await c.insertOne({ _id: 1, v: 'x', at: new Date(5) });
    expect(await c.updateOne({ _id: 1 }, { $set: { v: 'x', at: new Date(5) } })).toEqual({
      matchedCount: 1,
      modifiedCount: 0,
    });
    expect(await c.updateOne({ _id: 2 }, { $set: { v: 'y' } })).toEqual({
      matchedCount: 0,
      modifiedCount: 0,
    });
    expect(await c.countDocuments()).toBe(1);
  });

  it('updateOne changes one match, updateMany all of them', async () => {
    const c = ctx.store.collection('many');
    await c.insertMany([
      { _id: 1, g: 'a' },
      { _id: 2, g: 'a' },
      { _id: 3, g: 'b' },
    ]);
    expect(await c.updateOne({ g: 'a' }, { $set: { seen: true } })).toEqual({
      matchedCount: 1,
      modifiedCount: 1,
    });
    expect(await c.countDocuments({ seen: true })).toBe(1);
    expect(await c.updateMany({ g: 'a' }, { $set: { seen: true } })).toEqual({
      matchedCount: 2,
      modifiedCount: 1,
    });
    expect(await c.updateMany({}, { $inc: { n: 1 } })).toEqual({ matchedCount: 3, modifiedCount: 3 });
  });

  it('refuses to change _id', async () => {
    const c = ctx.store.collection('fixed');
    await c.insertOne({ _id: 1 });
    await expect(c.updateOne({ _id: 1 }, { $set: { _id: 2 } })).rejects.toThrow();
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1 });
  });

  it('$setOnInsert sets null, empty arrays and empty documents on insert, and nothing on update', async () => {
    const c = ctx.store.collection('set_on_insert');
    const update = { $setOnInsert: { gone: null, list: [], map: {}, n: 0 }, $inc: { seen: 1 } };
    await c.updateOne({ _id: 'a' }, update, { upsert: true });
    const made = await c.findOneAndUpdate({ _id: 'b' }, update, { upsert: true });
    expect(made).toStrictEqual({ _id: 'b', gone: null, list: [], map: {}, n: 0, seen: 1 });
    await c.updateOne({ _id: 'a' }, { $set: { list: [1], gone: 'x' } });
    await c.updateOne({ _id: 'a' }, update, { upsert: true });
    expect(await c.find({}, { sort: { _id: 1 } })).toStrictEqual([
      { _id: 'a', gone: 'x', list: [1], map: {}, n: 0, seen: 2 },
      { _id: 'b', gone: null, list: [], map: {}, n: 0, seen: 1 },
    ]);
  });

  it('upserts from the filter equalities plus the update, $setOnInsert only when inserting', async () => {
    const c = ctx.store.collection('upserts');
    const first = await c.updateOne(
      { email: 'a@example.com', kind: 'user', age: { $gt: 5 } },
      { $set: { name: 'A' }, $setOnInsert: { createdAt: new Date(1) } },
      { upsert: true },
    );
    expect(first.matchedCount).toBe(0);
    expect(first.modifiedCount).toBe(0);
    expect(typeof first.upsertedId).toBe('string');
    const second = await c.updateOne(
      { email: 'a@example.com', kind: 'user' },
      { $set: { name: 'B' }, $setOnInsert: { createdAt: new Date(2) } },
      { upsert: true },
    );
    expect(second).toEqual({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.find({})).toStrictEqual([
      { _id: first.upsertedId, email: 'a@example.com', kind: 'user', name: 'B', createdAt: new Date(1) },
    ]);
    const byId = await c.updateOne({ _id: 'chosen' }, { $inc: { n: 1 } }, { upsert: true });
    expect(byId.upsertedId).toBe('chosen');
    expect(await c.findOne({ _id: 'chosen' })).toStrictEqual({ _id: 'chosen', n: 1 });
  });

  it('findOneAndUpdate returns the document after (default) or before, honouring sort', async () => {
    const c = ctx.store.collection('fau');
    await c.insertMany([
      { _id: 'p3', q: 1, p: 3 },
      { _id: 'p1', q: 1, p: 1 },
      { _id: 'p2', q: 1, p: 2 },
    ]);
    const after = await c.findOneAndUpdate({ q: 1 }, { $set: { taken: true } }, { sort: { p: 1 } });
    expect(after).toStrictEqual({ _id: 'p1', q: 1, p: 1, taken: true });
    const before = await c.findOneAndUpdate(
      { q: 1, taken: { $exists: false } },
      { $inc: { p: 10 } },
      { sort: { p: -1 }, returnDocument: 'before' },
    );
    expect(before).toStrictEqual({ _id: 'p3', q: 1, p: 3 });
    expect(await c.findOne({ _id: 'p3' })).toStrictEqual({ _id: 'p3', q: 1, p: 13 });
    expect(await c.findOneAndUpdate({ q: 2 }, { $set: { x: 1 } })).toBeNull();
  });

  itGuaranteed(options, 'find-and-modify-projection', 'findOneAndUpdate honours a projection', async () => {
    const c = ctx.store.collection('fau_projection');
    await c.insertMany([
      { _id: 'a', q: 1, p: 3, other: 'x' },
      { _id: 'b', q: 2, p: 4, other: 'y' },
    ]);
    const before = await c.findOneAndUpdate(
      { q: 1 },
      { $inc: { p: 10 } },
      { returnDocument: 'before', projection: { p: 1 } },
    );
    expect(before).toStrictEqual({ _id: 'a', p: 3 });
    const after = await c.findOneAndUpdate({ q: 2 }, { $inc: { p: 10 } }, { projection: { other: 0 } });
    expect(after).toStrictEqual({ _id: 'b', q: 2, p: 14 });
    expect(await c.findOne({ _id: 'a' })).toStrictEqual({ _id: 'a', q: 1, p: 13, other: 'x' });
  });

  it('findOneAndUpdate with upsert returns the inserted document, or null when asked for "before"', async () => {
    const c = ctx.store.collection('fau_upsert');
    const made = await c.findOneAndUpdate({ _id: 'k' }, { $inc: { seq: 1 } }, { upsert: true });
    expect(made).toStrictEqual({ _id: 'k', seq: 1 });
    const none = await c.findOneAndUpdate(
      { name: 'n' },
      { $set: { v: 1 } },
      { upsert: true, returnDocument: 'before' },
    );
    expect(none).toBeNull();
    const inserted = await c.findOne({ name: 'n' });
    expect(inserted).toMatchObject({ name: 'n', v: 1 });
    expect(typeof inserted!._id).toBe('string');
  });

  it('findOneAndUpdate is atomic: parallel claims never take the same document twice', async () => {
    const c = ctx.store.collection('claims');
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, status: 'free' })));
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, worker) =>
        c.findOneAndUpdate({ status: 'free' }, { $set: { status: 'taken', by: worker } }),
      ),
    );
    const won = claims.filter((d) => d !== null);
    expect(won).toHaveLength(10);
    expect(new Set(won.map((d) => d._id)).size).toBe(10);
    expect(await c.countDocuments({ status: 'free' })).toBe(0);
    for (const d of won) expect(await c.findOne({ _id: d._id })).toMatchObject({ by: d.by });
  });

  it('deleteOne removes one match, deleteMany all of them', async () => {
    const c = ctx.store.collection('deletes');
    await c.insertMany([
      { _id: 1, g: 'a' },
      { _id: 2, g: 'a' },
      { _id: 3, g: 'b' },
      { _id: 4, g: 'a' },
    ]);
    expect(await c.deleteOne({ g: 'a' })).toEqual({ deletedCount: 1 });
    expect(await c.countDocuments({ g: 'a' })).toBe(2);
    expect(await c.deleteMany({ g: 'a' })).toEqual({ deletedCount: 2 });
    expect(await c.deleteMany({ g: 'zzz' })).toEqual({ deletedCount: 0 });
    expect(await c.find({})).toEqual([{ _id: 3, g: 'b' }]);
  });
}
