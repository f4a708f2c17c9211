// Durable writes of the SQLite embedded store are acknowledged after an fsync of the WAL that started
// after their commit (docs/adr/0017-embedded-store-sqlite.md). The fsync starts at the end of the turn
// of the event loop, so writes made in the same turn — a request writing a record and queueing a job,
// or concurrent requests — share one fsync instead of waiting for one after another. Shown by counting
// the process's datasync calls while every fsync is held back.
import { describe, expect, it } from '@jest/globals';
import { turns, useScratchStore } from './hold-fsyncs.js';

const scratch = useScratchStore('murmur-shared-fsync-');

describe('group commit of the SQLite embedded store', () => {
  it('writes to two collections in one turn are acknowledged after one shared fsync', async () => {
    const store = await scratch.open();
    const records = store.collection<{ _id: string; status: string }>('records');
    const jobs = store.collection<{ _id: string; key: string }>('jobs');
    await jobs.createIndex({ key: 1 }, { unique: true, sparse: true });
    await records.insertOne({ _id: 'warm', status: 'x' });
    await jobs.insertOne({ _id: 'warm', key: 'warm' });

    const held = await scratch.hold();
    let acknowledged = 0;
    const both = Promise.all([
      records
        .updateOne({ _id: 'r1' }, { $setOnInsert: { status: 'queued' } }, { upsert: true })
        .then(() => (acknowledged += 1)),
      jobs.insertOne({ _id: 'j1', key: 'verify:r1' }).then(() => (acknowledged += 1)),
    ]);
    await turns(20);
    // Both committed and readable, neither acknowledged before the flush, one flush for both.
    expect(await records.findOne({ _id: 'r1' })).toEqual({ _id: 'r1', status: 'queued' });
    expect(await jobs.findOne({ key: 'verify:r1' })).toEqual({ _id: 'j1', key: 'verify:r1' });
    expect(acknowledged).toBe(0);
    expect(held.count).toBe(1);
    held.release();
    await both;
    expect(acknowledged).toBe(2);
    expect(held.count).toBe(1);
  });

  it('a write committed while an fsync runs waits for the next one, which starts after it', async () => {
    const store = await scratch.open();
    const docs = store.collection<{ _id: string }>('docs');
    await docs.insertOne({ _id: 'warm' });

    const held = await scratch.hold();
    let firstDone = false;
    let secondDone = false;
    const first = docs.insertOne({ _id: 'a' }).then(() => (firstDone = true));
    await turns(5);
    expect(held.count).toBe(1);
    const second = docs.insertOne({ _id: 'b' }).then(() => (secondDone = true));
    await turns(5);
    // The running fsync may have started before the second commit: it does not cover it.
    expect(held.count).toBe(1);
    held.release();
    await first;
    await second;
    expect(firstDone && secondDone).toBe(true);
    expect(held.count).toBe(2);
  });
});
