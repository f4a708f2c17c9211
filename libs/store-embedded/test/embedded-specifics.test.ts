// What only the embedded adapter has to say: where its files go, when TTL takes effect, how it
// guards its files and what it refuses. The shared meaning is in the contract suite.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type EmbeddedStore } from '../src/embedded.js';
import { openStore } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { databaseNameFromUrl } from '@murmur/store-mongodb';

let dir: string;

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

/** Every document stored in a collection's table, read with SQLite itself (expired ones included). */
function rawDocs(serviceDir: string, collection: string): Record<string, unknown>[] {
  const db = new Database(join(serviceDir, 'store.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT doc FROM "c:${collection}" ORDER BY rid`).pluck().all() as string[];
    return rows.map((text) => JSON.parse(text) as Record<string, unknown>);
  } finally {
    db.close();
  }
}
const opened: Store[] = [];
const open = async (url: string, service = 'reader', extra = {}) => {
  const store = await openStore(url, { service, ...extra });
  opened.push(store);
  return store;
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-embedded-'));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('file layout', () => {
  it('keeps one SQLite database per service, <dir>/<service>/store.sqlite, with documents as JSON', async () => {
    const store = await open(`file:${dir}`, 'reader');
    expect(store.kind).toBe('embedded');
    const feeds = store.collection('feeds');
    await feeds.createIndex({ userId: 1, url: 1 }, { unique: true });
    await feeds.insertOne({ _id: 1, userId: 1, url: 'https://example.com/feed' });
    await store.collection('entries').insertOne({ _id: 1 });
    await store.close();
    const files = (await readdir(join(dir, 'reader'))).sort();
    expect(files).toEqual(['store.sqlite']);
    expect(rawDocs(join(dir, 'reader'), 'feeds')).toEqual([
      { _id: 1, userId: 1, url: 'https://example.com/feed' },
    ]);
    const again = await open(`file:${dir}`, 'reader');
    expect(await again.collection('feeds').findOne({ _id: 1 })).toStrictEqual({
      _id: 1,
      userId: 1,
      url: 'https://example.com/feed',
    });
  });

  it('refuses to open a directory twice in one process, and reopens it after close', async () => {
    const first = await open(`file:${dir}`);
    await expect(openStore(`file:${dir}`, { service: 'reader' })).rejects.toThrow(/already open/);
    await open(`file:${dir}`, 'feeds');
    await first.close();
    await open(`file:${dir}`);
  });
});

describe('TTL', () => {
  it('hides expired documents at once and deletes them at the next sweep', async () => {
    const store = await open(`file:${dir}`, 'identity', { ttlSweepIntervalMs: 50 });
    const codes = store.collection('codes');
    await codes.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await codes.insertMany([
      { _id: 'old', expiresAt: new Date(Date.now() - 1000) },
      // A second ahead, not less: on a loaded CI machine the writes and a short wait can outlast a few
      // hundred milliseconds (libs/jobs/test/jobs/job-queue-contract.ts met that).
      { _id: 'soon', expiresAt: new Date(Date.now() + 1000) },
      { _id: 'later', expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    expect((await codes.find({})).map((d) => d._id).sort()).toEqual(['later', 'soon']);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await codes.countDocuments()).toBe(1);
    await store.close();
    expect(rawDocs(join(dir, 'identity'), 'codes').map((d) => d._id)).toEqual(['later']);
  });

  it('lets a write reuse the key of an expired document that was not swept yet', async () => {
    const store = await open('memory:');
    const windows = store.collection('windows');
    await windows.createIndex({ at: 1 }, { expireAfterSeconds: 1 });
    await windows.createIndex({ name: 1 }, { unique: true });
    const past = new Date(Date.now() - 5000);
    await windows.insertMany([
      { _id: 'w', name: 'a', at: past, hits: 9 },
      { _id: 'x', name: 'b', at: past },
    ]);
    const fresh = await windows.findOneAndUpdate(
      { _id: 'w' },
      { $inc: { hits: 1 }, $set: { at: new Date() } },
      { upsert: true },
    );
    expect(fresh).toMatchObject({ _id: 'w', hits: 1 });
    await windows.insertOne({ _id: 'y', name: 'b', at: new Date() });
    expect((await windows.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['w', 'y']);
  });
});

describe('memory stores', () => {
  it('memory: is private to each store; memory:<name> is shared per service and outlives close()', async () => {
    const a = await open('memory:');
    const b = await open('memory:');
    await a.collection('x').insertOne({ _id: 1 });
    expect(await b.collection('x').countDocuments()).toBe(0);

    const name = `shared-${process.pid}`;
    const one = await open(`memory:${name}`, 'feeds');
    const two = await open(`memory:${name}`, 'feeds');
    const other = await open(`memory:${name}`, 'push');
    await one.collection('x').insertOne({ _id: 1 });
    expect(await two.collection('x').countDocuments()).toBe(1);
    expect(await other.collection('x').countDocuments()).toBe(0);
    await one.close();
    await two.close();
    const three = await open(`memory:${name}`, 'feeds');
    expect(await three.collection('x').countDocuments()).toBe(1);
  });

  it('a closed store refuses work and fails its ping', async () => {
    const store = await open('memory:');
    await store.ping();
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
    expect(() => store.collection('x')).not.toThrow();
    await expect(store.collection('x').countDocuments()).rejects.toThrow(/closed/);
  });
});

describe('what it refuses', () => {
  it('refuses operators outside the port, values it cannot store, and unsafe names', async () => {
    const store = (await open('memory:')) as EmbeddedStore;
    const c = store.collection('x');
    await c.insertOne({ _id: 1, name: 'a' });
    await expect(c.find({ name: { $regex: 'a' } })).rejects.toThrow(/unsupported filter operator \$regex/);
    await expect(c.find({ $where: 'true' })).rejects.toThrow(/unsupported/);
    await expect(c.updateOne({ _id: 1 }, { $rename: { a: 'b' } } as never)).rejects.toThrow(/unsupported/);
    await expect(c.updateOne({ _id: 1 }, { name: 'b' } as never)).rejects.toThrow(/operators/);
    await expect(c.insertOne({ _id: 2, blob: Buffer.from('x') })).rejects.toThrow(/cannot store Buffer/);
    // The message names where the value is, however deep, and nothing was stored.
    await expect(c.insertOne({ _id: 3, a: { b: [1, { c: new Map() }] } })).rejects.toThrow(
      'cannot store Map at a.b.1.c',
    );
    await expect(c.updateOne({ _id: 1 }, { $set: { 'd.e': { f: () => 1 } } })).rejects.toThrow(
      'cannot store function at d.e.f',
    );
    expect(await c.find({})).toEqual([{ _id: 1, name: 'a' }]);
    for (const bad of ['system.indexes', '../escape', 'a/b', ''])
      expect(() => store.collection(bad)).toThrow();
    await expect(openStore('memory:', { service: '../x' })).rejects.toThrow(/service name/);
  });

  it('refuses unknown URL schemes without echoing credentials', async () => {
    await expect(openStore('postgres://user:secret@host/db', { service: 'x' })).rejects.toThrow(
      /unsupported store URL "postgres:\/\/\*\*\*@host\/db"/,
    );
  });
});

describe('MongoDB database naming', () => {
  it('uses the database named in the URL path, if any', () => {
    expect(databaseNameFromUrl('mongodb://localhost:27017')).toBeUndefined();
    expect(databaseNameFromUrl('mongodb://localhost:27017/')).toBeUndefined();
    expect(databaseNameFromUrl('mongodb://localhost/?replicaSet=rs0')).toBeUndefined();
    expect(databaseNameFromUrl('mongodb://u:p@h1:1,h2:2/murmur?authSource=admin')).toBe('murmur');
    expect(databaseNameFromUrl('mongodb+srv://cluster.example.net/my%20db')).toBe('my db');
  });
});
