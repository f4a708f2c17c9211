// documentsExamined (src/sqlite-collection.ts): how many documents the SQLite engine read to answer
// queries of a collection, so a test can tell a query that walks an index from one that scans.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { openStore } from '@murmur/runtime';
import type { Store } from '@murmur/store';
import { documentsExamined } from '../src/index.js';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-examined-'));
  store = await openStore(`file:${dir}`, { service: 'examined' });
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The documents `query` reads from `collection`. */
async function examinedBy(collection: string, query: () => Promise<unknown>): Promise<number> {
  const before = documentsExamined(collection);
  await query();
  return documentsExamined(collection) - before;
}

it('counts every document a scan reads, one for an _id lookup, and the candidates of an index range', async () => {
  const things = store.collection('things');
  await things.createIndex({ kind: 1 });
  await things.insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: i + 1, kind: i % 5, n: i })));

  expect(await examinedBy('things', () => things.find({ n: { $gte: 490 } }))).toBe(500);
  expect(await examinedBy('things', () => things.findOne({ _id: 42 }))).toBe(1);
  expect(await examinedBy('things', () => things.find({ kind: 3 }))).toBe(100);
  // Counted per collection name: another collection's reads are not this one's.
  expect(await examinedBy('other', () => things.find({}))).toBe(0);
});
