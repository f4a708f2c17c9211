// A relaxed collection (CollectionOptions.durability, used for rate-limit counters) acknowledges a
// write once it is applied, without waiting for the disk's flush; a durable one waits for it. Shown
// by holding every fsync of the process back: the relaxed write is acknowledged and readable while the
// flush is held, the durable write is acknowledged only once it is let go. Both engines of the
// embedded store (SQLite, and the nedb files it migrates from).
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { EmbeddedStore, type Store } from '../../src/store/index.js';

let dir: string;
let store: Store | undefined;
let release: () => void = () => undefined;
let restore: () => void = () => undefined;

/** Holds every FileHandle.datasync of this process until `release()`. */
async function holdFsyncs(): Promise<void> {
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = proto.datasync;
  const gate = new Promise<void>((resolve) => (release = resolve));
  proto.datasync = function (this: FileHandle) {
    return gate.then(() => original.call(this));
  };
  restore = () => {
    proto.datasync = original;
  };
}

/** Lets pending callbacks, I/O and timers of a few turns run. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 5));
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-relaxed-'));
});

afterEach(async () => {
  release();
  restore();
  await store?.close();
  store = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe.each([['sqlite' as const], ['nedb' as const]])(
  'relaxed durability on the embedded store (%s)',
  (engine) => {
    it('acknowledges a relaxed write while the flush is held, a durable write only after it', async () => {
      store = await EmbeddedStore.open({ service: 'test', location: { kind: 'file', dir }, engine });
      const counters = store.collection<{ _id: string; n: number }>('counters-relaxed', {
        durability: 'relaxed',
      });
      const posts = store.collection<{ _id: string; title: string }>('posts-durable');
      // Create the files (and the SQLite tables) before holding the flushes.
      await counters.insertOne({ _id: 'warm', n: 0 });
      await posts.insertOne({ _id: 'warm', title: 'warm' });

      await holdFsyncs();
      await counters.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }, { upsert: true });
      expect(await counters.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });

      let acknowledged = false;
      const durable = posts.insertOne({ _id: 'p1', title: 'kept' }).then(() => (acknowledged = true));
      await turns(20);
      expect(acknowledged).toBe(false);
      release();
      await durable;
      expect(acknowledged).toBe(true);
      expect(await posts.findOne({ _id: 'p1' })).toEqual({ _id: 'p1', title: 'kept' });
    });
  },
);
