// Contract: inserting, reading back, filters, sort, skip, limit, projection, counting.
import { beforeEach, describe, expect, it } from '@jest/globals';
import { DuplicateKeyError, type Collection, type Filter } from '../src/port.js';
import type { ContractContext } from './contract.js';

type Person = Record<string, unknown> & { _id: number };

const PEOPLE: Person[] = [
  {
    _id: 1,
    name: 'ada',
    age: 36,
    tags: ['math', 'code'],
    address: { city: 'London' },
    born: new Date('1815-12-10T00:00:00Z'),
    active: true,
  },
  { _id: 2, name: 'bob', age: 25, tags: ['code'], address: { city: 'Paris' }, nick: null, active: false },
  {
    _id: 3,
    name: 'cy',
    age: 41,
    tags: [],
    items: [
      { sku: 'a', qty: 1 },
      { sku: 'b', qty: 5 },
    ],
    active: true,
  },
  { _id: 4, name: 'dee', age: '41', active: true },
];

export function defineReadTests(ctx: ContractContext): void {
  it('gives a document without _id a random string id and returns what was stored', async () => {
    const notes = ctx.store.collection('notes');
    const input = { text: 'hello', skipped: undefined };
    const stored = await notes.insertOne(input);
    expect(typeof stored._id).toBe('string');
    expect((stored._id as string).length).toBeGreaterThanOrEqual(12);
    expect(stored).toStrictEqual({ _id: stored._id, text: 'hello' });
    expect(Object.keys(input)).toEqual(['text', 'skipped']);
    const other = await notes.insertOne({ text: 'again' });
    expect(other._id).not.toBe(stored._id);
    expect(await notes.findOne({ _id: stored._id })).toStrictEqual({ _id: stored._id, text: 'hello' });
  });

  it('keeps string and integer ids as given', async () => {
    const c = ctx.store.collection('ids');
    await c.insertMany([
      { _id: 7, v: 'int' },
      { _id: 'seven', v: 'str' },
      { _id: '7', v: 'digits' },
    ]);
    expect(await c.findOne({ _id: 7 })).toEqual({ _id: 7, v: 'int' });
    expect(await c.findOne({ _id: '7' })).toEqual({ _id: '7', v: 'digits' });
    expect(await c.findOne({ _id: 'seven' })).toEqual({ _id: 'seven', v: 'str' });
  });

  it('round-trips dates, nested documents, arrays, numbers, booleans and null', async () => {
    const c = ctx.store.collection('values');
    const doc = {
      _id: 'v',
      at: new Date('2026-11-21T08:30:00.123Z'),
      nested: { deep: { list: [1, 'two', { three: 3 }], flag: false } },
      n: -12.5,
      big: 2 ** 40,
      none: null,
      dates: [new Date(0)],
    };
    await c.insertOne(doc);
    const back = await c.findOne({ _id: 'v' });
    expect(back).toEqual(doc);
    expect(back!.at).toBeInstanceOf(Date);
    expect((back!.dates as Date[])[0]).toBeInstanceOf(Date);
  });

  it('refuses a second document with the same _id and keeps the first', async () => {
    const c = ctx.store.collection('dupes');
    await c.insertOne({ _id: 'x', v: 1 });
    const err = await c.insertOne({ _id: 'x', v: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DuplicateKeyError);
    expect((err as DuplicateKeyError).collection).toBe('dupes');
    expect(await c.find({})).toEqual([{ _id: 'x', v: 1 }]);
  });

  it('insertMany inserts in order and stops at the first duplicate, keeping the ones before it', async () => {
    const c = ctx.store.collection('batch');
    expect(await c.insertMany([])).toEqual([]);
    await c.insertMany([{ _id: 1 }, { _id: 2 }]);
    await expect(c.insertMany([{ _id: 3 }, { _id: 1 }, { _id: 4 }])).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    expect((await c.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual([1, 2, 3]);
  });

  describe('queries', () => describeFilters(ctx));

  it('keeps strings holding NUL characters, as ids and values, and finds them by equality', async () => {
    // Keys joined by NUL are how rate-limit counters and push deliveries name their documents.
    const c = ctx.store.collection('nul');
    await c.createIndex({ key: 1 }, { unique: true });
    await c.insertMany([
      { _id: 'a\u0000b', key: 'x\u0000\u0000y', note: '\ue000 kept' },
      { _id: 'a\u0000c', key: 'x\u0000y' },
    ]);
    expect(await c.findOne({ _id: 'a\u0000b' })).toStrictEqual({
      _id: 'a\u0000b',
      key: 'x\u0000\u0000y',
      note: '\ue000 kept',
    });
    expect((await c.find({ key: { $in: ['x\u0000y'] } })).map((d) => d._id)).toEqual(['a\u0000c']);
    await expect(c.insertOne({ _id: 'a\u0000d', key: 'x\u0000y' })).rejects.toThrow(DuplicateKeyError);
    const updated = await c.findOneAndUpdate({ _id: 'a\u0000c' }, { $set: { key: 'z\u0000' } });
    expect(updated).toStrictEqual({ _id: 'a\u0000c', key: 'z\u0000' });
    expect(await c.countDocuments({ _id: 'a\u0000' })).toBe(0);
  });

  it('refuses a filter holding undefined (it would otherwise match too much)', async () => {
    const c = ctx.store.collection('guarded');
    await c.insertOne({ _id: 1 });
    await expect(c.find({ owner: undefined })).rejects.toThrow(/undefined/);
    await expect(c.countDocuments({ $or: [{ owner: undefined }] })).rejects.toThrow(/undefined/);
  });
}

function describeFilters(ctx: ContractContext): void {
  let people: Collection<Person>;
  const ids = async (filter: Filter) => (await people.find(filter, { sort: { _id: 1 } })).map((p) => p._id);

  beforeEach(async () => {
    people = ctx.store.collection<Person>('people');
    await people.insertMany(PEOPLE);
  });

  it('matches equality, dot paths, array membership and embedded documents', async () => {
    expect(await ids({})).toEqual([1, 2, 3, 4]);
    expect(await ids({ name: 'ada' })).toEqual([1]);
    expect(await ids({ 'address.city': 'Paris' })).toEqual([2]);
    expect(await ids({ address: { city: 'London' } })).toEqual([1]);
    expect(await ids({ tags: 'code' })).toEqual([1, 2]);
    expect(await ids({ tags: ['code'] })).toEqual([2]);
    expect(await ids({ 'items.sku': 'b' })).toEqual([3]);
    expect(await ids({ 'items.0.sku': 'a' })).toEqual([3]);
    expect(await ids({ active: true, tags: 'code' })).toEqual([1]);
    expect(await ids({ born: new Date('1815-12-10T00:00:00Z') })).toEqual([1]);
    expect(await ids({ name: 'nobody' })).toEqual([]);
  });

  it('compares only within a type: numbers with numbers, strings with strings, dates with dates', async () => {
    expect(await ids({ age: { $gt: 30 } })).toEqual([1, 3]);
    expect(await ids({ age: { $gte: 25, $lt: 40 } })).toEqual([1, 2]);
    expect(await ids({ age: { $lte: 25 } })).toEqual([2]);
    expect(await ids({ age: '41' })).toEqual([4]);
    expect(await ids({ age: { $gte: 'a' } })).toEqual([]);
    expect(await ids({ born: { $lt: new Date('1900-01-01T00:00:00Z') } })).toEqual([1]);
    expect(await ids({ 'items.qty': { $gt: 2 } })).toEqual([3]);
  });

  it('handles $in, $nin and $ne, including on arrays and missing fields', async () => {
    expect(await ids({ name: { $in: ['ada', 'cy', 'zed'] } })).toEqual([1, 3]);
    expect(await ids({ name: { $nin: ['ada'] } })).toEqual([2, 3, 4]);
    expect(await ids({ tags: { $in: ['math'] } })).toEqual([1]);
    expect(await ids({ tags: { $nin: ['code'] } })).toEqual([3, 4]);
    expect(await ids({ tags: { $ne: 'code' } })).toEqual([3, 4]);
    expect(await ids({ name: { $ne: 'ada' } })).toEqual([2, 3, 4]);
    expect(await ids({ _id: { $in: [2, 4, 99] } })).toEqual([2, 4]);
  });

  it('treats null as "null or missing" and $exists as "present, even if null or empty"', async () => {
    expect(await ids({ nick: null })).toEqual([1, 2, 3, 4]);
    expect(await ids({ nick: { $ne: null } })).toEqual([]);
    expect(await ids({ nick: { $exists: true } })).toEqual([2]);
    expect(await ids({ tags: { $exists: true } })).toEqual([1, 2, 3]);
    expect(await ids({ address: { $exists: false } })).toEqual([3, 4]);
    expect(await ids({ 'address.city': { $exists: true } })).toEqual([1, 2]);
  });

  it('combines conditions with $or and $and', async () => {
    expect(await ids({ $or: [{ name: 'ada' }, { age: { $lt: 30 } }] })).toEqual([1, 2]);
    expect(await ids({ $and: [{ active: true }, { age: { $gte: 40 } }] })).toEqual([3]);
    expect(await ids({ active: true, $or: [{ tags: 'math' }, { name: 'dee' }] })).toEqual([1, 4]);
  });

  it('sorts on several fields in BSON order (missing first, numbers before strings)', async () => {
    const order = async (sort: Record<string, 1 | -1>) => (await people.find({}, { sort })).map((p) => p._id);
    expect(await order({ active: -1, age: 1 })).toEqual([1, 3, 4, 2]);
    expect(await order({ 'address.city': 1, _id: 1 })).toEqual([3, 4, 1, 2]);
    expect(await order({ 'address.city': -1, _id: -1 })).toEqual([2, 1, 4, 3]);
    expect(await order({ name: -1 })).toEqual([4, 3, 2, 1]);
  });

  it('skips and limits after sorting, and findOne takes the first by sort', async () => {
    const page = await people.find({}, { sort: { _id: 1 }, skip: 1, limit: 2 });
    expect(page.map((p) => p._id)).toEqual([2, 3]);
    expect((await people.find({ active: true }, { limit: 2, sort: { _id: -1 } })).map((p) => p._id)).toEqual([
      4, 3,
    ]);
    expect((await people.find({}, { limit: 3 })).length).toBe(3);
    expect((await people.findOne({ active: true }, { sort: { name: -1 } }))!._id).toBe(4);
    expect(await people.findOne({ name: 'nobody' })).toBeNull();
  });

  it('projects by inclusion (with or without _id), exclusion and dot paths', async () => {
    expect(await people.findOne({ _id: 1 }, { projection: { name: 1 } })).toEqual({ _id: 1, name: 'ada' });
    expect(await people.findOne({ _id: 1 }, { projection: { name: 1, _id: 0 } })).toEqual({ name: 'ada' });
    expect(await people.findOne({ _id: 2 }, { projection: { tags: 0, address: 0, nick: 0 } })).toEqual({
      _id: 2,
      name: 'bob',
      age: 25,
      active: false,
    });
    expect(await people.findOne({ _id: 1 }, { projection: { 'address.city': 1 } })).toEqual({
      _id: 1,
      address: { city: 'London' },
    });
    const listed = await people.find({ _id: 3 }, { projection: { 'items.sku': 1, _id: 0 } });
    expect(listed).toEqual([{ items: [{ sku: 'a' }, { sku: 'b' }] }]);
  });

  it('projects every document a find returns, whatever order or page it asks for', async () => {
    // Every document, in stored order: a date comes back a Date, a missing field stays missing.
    const all = await people.find({}, { projection: { born: 1, nick: 1 } });
    expect(all.sort((a, b) => (a._id as number) - (b._id as number))).toEqual([
      { _id: 1, born: new Date('1815-12-10T00:00:00Z') },
      { _id: 2, nick: null },
      { _id: 3 },
      { _id: 4 },
    ]);
    expect(all[0]!.born).toBeInstanceOf(Date);
    // Sorted by a field the projection leaves out, then paged.
    expect(
      await people.find({ active: true }, { sort: { name: -1 }, skip: 1, projection: { _id: 1 } }),
    ).toEqual([{ _id: 3 }, { _id: 1 }]);
    expect(
      await people.find({}, { sort: { age: 1, _id: 1 }, limit: 2, projection: { age: 0, tags: 0, _id: 0 } }),
    ).toEqual([
      { name: 'bob', address: { city: 'Paris' }, nick: null, active: false },
      { name: 'ada', address: { city: 'London' }, born: new Date('1815-12-10T00:00:00Z'), active: true },
    ]);
  });

  it('counts documents with and without a filter', async () => {
    expect(await people.countDocuments()).toBe(4);
    expect(await people.countDocuments({ active: true })).toBe(3);
    expect(await people.countDocuments({ tags: 'code', active: false })).toBe(1);
  });
}
