// A sorted read whose filter fixes an index's leading fields and whose sort names the fields after them
// (then `_id`) reads its page by walking the index in key order and stops at the limit, instead of
// reading every document of the group and sorting them (src/embedded-plan.ts). Counted with
// documentsExamined, not timed. And it answers exactly what the same query answers without the index.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { openStore } from '@murmur/runtime';
import type { Collection, Doc, Filter, Sort, Store } from '@murmur/store';
import { documentsExamined } from '../src/index.js';
import { fuzzParams } from '../../../test-e2e/support/fuzz.js';

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-sorted-walk-'));
  store = await openStore(`file:${dir}`, { service: 'walk' });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function examined<T>(
  collection: string,
  query: () => Promise<T>,
): Promise<{ result: T; read: number }> {
  const before = documentsExamined(collection);
  const result = await query();
  return { result, read: documentsExamined(collection) - before };
}

describe('the newest N of a group', () => {
  const POSTS = 3000;
  let posts: Collection<Doc>;
  const date = (i: number) => new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 3) * 60_000);

  beforeAll(async () => {
    posts = store.collection('posts');
    await posts.createIndex({ siteId: 1, date: -1 });
    await posts.createIndex({ siteId: 1, status: 1, date: -1 });
    await posts.createIndex({ siteId: 1, status: 1, tags: 1, date: -1 });
    // Three posts a minute (ties on the date), a draft every tenth, tags from a small set.
    await posts.insertMany(
      Array.from({ length: POSTS }, (_, i) => ({
        _id: i + 1,
        siteId: 1 + (i % 2),
        status: i % 10 === 0 ? 'draft' : 'published',
        tags: i % 7 === 0 ? ['rare', 'common'] : ['common'],
        date: date(i),
      })),
    );
  });

  const expected = (keep: (i: number) => boolean, order: 1 | -1, limit: number, skip = 0) => {
    const ids = Array.from({ length: POSTS }, (_, i) => i)
      .filter(keep)
      .sort((a, b) => (date(a).getTime() - date(b).getTime() || a - b) * order)
      .map((i) => i + 1);
    return ids.slice(skip, skip + limit);
  };

  it('newest first by date then _id, one field fixed: reads the page only', async () => {
    const { result, read } = await examined('posts', () =>
      posts.find({ siteId: 1 }, { sort: { date: -1, _id: -1 }, limit: 20 }),
    );
    expect(result.map((d) => d._id)).toEqual(expected((i) => i % 2 === 0, -1, 20));
    expect(read).toBeLessThanOrEqual(20);
  });

  it('oldest first, with a skip: reads the skipped documents and the page', async () => {
    const { result, read } = await examined('posts', () =>
      posts.find({ siteId: 2 }, { sort: { date: 1, _id: 1 }, skip: 40, limit: 20 }),
    );
    expect(result.map((d) => d._id)).toEqual(expected((i) => i % 2 === 1, 1, 20, 40));
    expect(read).toBeLessThanOrEqual(60);
  });

  it('two fields fixed, sorted on the date alone: reads the page only', async () => {
    const { result, read } = await examined('posts', () =>
      posts.find({ siteId: 1, status: 'published' }, { sort: { date: -1 }, limit: 20 }),
    );
    expect(result.map((d) => (d.date as Date).getTime())).toEqual(
      expected((i) => i % 2 === 0 && i % 10 !== 0, -1, 20).map((id) => date(id - 1).getTime()),
    );
    expect(read).toBeLessThanOrEqual(20);
  });

  it('an array field fixed (a tag): reads the page only, each post once', async () => {
    const { result, read } = await examined('posts', () =>
      posts.find(
        { siteId: 2, status: 'published', tags: 'rare' },
        { sort: { date: -1, _id: -1 }, limit: 20 },
      ),
    );
    expect(result.map((d) => d._id)).toEqual(
      expected((i) => i % 2 === 1 && i % 10 !== 0 && i % 7 === 0, -1, 20),
    );
    expect(read).toBeLessThanOrEqual(20);
  });

  it('findOne by the newest date reads one document', async () => {
    const { result, read } = await examined('posts', () =>
      posts.findOne({ siteId: 1 }, { sort: { date: -1, _id: -1 } }),
    );
    expect(result!._id).toBe(expected((i) => i % 2 === 0, -1, 1)[0]);
    expect(read).toBe(1);
  });

  it('a sort the index cannot give (mixed directions, another field) still answers right, by reading the group', async () => {
    const { result, read } = await examined('posts', () =>
      posts.find({ siteId: 1 }, { sort: { date: -1, _id: 1 }, limit: 3 }),
    );
    const newest = date(POSTS - 1).getTime();
    const tied = Array.from({ length: POSTS }, (_, i) => i)
      .filter((i) => i % 2 === 0 && date(i).getTime() === newest)
      .map((i) => i + 1);
    expect(result.map((d) => d._id).slice(0, tied.length)).toEqual(tied.slice(0, 3));
    expect(read).toBe(POSTS / 2);
  });
});

describe('the same answers as without the index', () => {
  // Values of the kinds whose key order is MongoDB's sort order (src/embedded-keys.ts): missing, null,
  // numbers, strings, booleans, dates, and non-empty arrays of them. Embedded documents and empty arrays
  // in a presorted field are the documented exception (src/embedded-plan.ts, walksInSortOrder).
  const scalar = fc.oneof(
    fc.constant(null),
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom('a', 'b', 'B', ''),
    fc.boolean(),
    fc.integer({ min: 0, max: 3 }).map((n) => new Date(Date.UTC(2026, 0, 1 + n))),
  );
  const value = fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { minLength: 1, maxLength: 3 }) },
  );
  const docs = fc.array(
    fc.record(
      {
        g: fc.integer({ min: 0, max: 2 }),
        t: fc.oneof(fc.constantFrom('x', 'y'), fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 2 })),
        a: value,
        b: value,
      },
      { requiredKeys: ['g'] },
    ),
    { maxLength: 40 },
  );
  const query = fc.record({
    filter: fc.oneof(
      fc.record({ g: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ g: fc.integer({ min: 0, max: 2 }), t: fc.constantFrom('x', 'y', 'z') }),
    ),
    fields: fc.constantFrom<string[]>(['a'], ['a', '_id'], ['a', 'b'], ['a', 'b', '_id']),
    dir: fc.constantFrom<1 | -1>(1, -1),
    skip: fc.integer({ min: 0, max: 5 }),
    limit: fc.integer({ min: 0, max: 8 }),
  });

  let run = 0;

  it('for every filter, sort, skip and limit the index can serve', async () => {
    await fc.assert(
      fc.asyncProperty(docs, query, async (generated, q) => {
        run += 1;
        const indexed = store.collection(`indexed-${run}`);
        const plain = store.collection(`plain-${run}`);
        await indexed.createIndex({ g: 1, a: 1, b: 1 });
        await indexed.createIndex({ g: 1, t: 1, a: -1, b: -1 });
        const withIds = generated.map((d, i) => ({ _id: i + 1, ...d }));
        if (withIds.length > 0) {
          await indexed.insertMany(withIds);
          await plain.insertMany(withIds);
        }
        const sort: Sort = Object.fromEntries(q.fields.map((f) => [f, q.dir]));
        // Ties beyond the sort's fields may come in any order: compare with `_id` last on both.
        const options = { sort, skip: q.skip, limit: q.limit };
        const [got, want] = await Promise.all([
          indexed.find(q.filter as Filter, options),
          plain.find(q.filter as Filter, options),
        ]);
        if (q.fields.at(-1) === '_id') expect(got).toEqual(want);
        else {
          const key = (d: Doc) => JSON.stringify(q.fields.map((f) => d[f] ?? null));
          expect(got.map(key)).toEqual(want.map(key));
        }
      }),
      fuzzParams(0.5),
    );
  });
});
