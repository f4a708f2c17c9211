// A durable write waits for an fsync of everything committed before it (docs/adr/0017-embedded-store-
// sqlite.md). A write that changed nothing — a job queue's claim finding no due job, an update
// matching no document — has nothing of its own to put on disk: when nothing at all was committed
// since the last fsync started, it is acknowledged without another one. Job workers poll their queue
// with such claims all day; each used to cost an fdatasync. Counted while every fsync is held back.
import { describe, expect, it } from '@jest/globals';
import { turns, useScratchStore } from './hold-fsyncs.js';

const scratch = useScratchStore('murmur-no-fsync-for-nothing-');

describe('fsyncs of the SQLite embedded store', () => {
  it('a claim that finds nothing, after everything is on disk, needs no fsync', async () => {
    const store = await scratch.open();
    const jobs = store.collection<{ _id: string; status: string }>('jobs');
    await jobs.createIndex({ status: 1 });
    await jobs.insertOne({ _id: 'done', status: 'done' });

    const held = await scratch.hold();
    let claimed: unknown = 'pending';
    void jobs
      .findOneAndUpdate({ status: 'queued' }, { $set: { status: 'running' } })
      .then((doc) => (claimed = doc));
    const missed = jobs.updateOne({ _id: 'absent' }, { $set: { status: 'running' } });
    await turns(10);
    expect(claimed).toBeNull();
    expect((await missed).matchedCount).toBe(0);
    expect(held.count).toBe(0);
  });

  it('a write that changes nothing still waits while a change before it is not on disk', async () => {
    const store = await scratch.open();
    const docs = store.collection<{ _id: string; n: number }>('docs');
    await docs.insertOne({ _id: 'warm', n: 0 });

    const held = await scratch.hold();
    let changedDone = false;
    let noopDone = false;
    const changed = docs.updateOne({ _id: 'warm' }, { $set: { n: 1 } }).then(() => (changedDone = true));
    await turns(5);
    // It reads the uncommitted-to-disk value: acknowledging now could show a client state a crash loses.
    const noop = docs.updateOne({ _id: 'warm' }, { $set: { n: 1 } }).then(() => (noopDone = true));
    await turns(5);
    expect(changedDone || noopDone).toBe(false);
    held.release();
    await Promise.all([changed, noop]);
    expect(held.count).toBeGreaterThanOrEqual(1);

    // Now everything is on disk: the same no-op write needs no fsync.
    const before = held.count;
    await docs.updateOne({ _id: 'warm' }, { $set: { n: 1 } });
    expect(held.count).toBe(before);
  });
});
