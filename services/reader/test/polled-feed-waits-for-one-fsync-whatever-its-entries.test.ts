// Polling's work, counted rather than timed (issue 38): on the embedded store on disk, a poll that
// finds new and changed entries for several subscribers writes them all in one transaction and waits
// for one fsync (docs/adr/0017-embedded-store-sqlite.md: writes of one turn of the event loop share
// the turn's commit and its group fsync) — not one per entry, per subscriber, or per step. What users
// see is the same as ever, and every write is still on disk before the poll finishes.
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { refreshFeed } from '../src/jobs/refresh.js';
import { rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { startReader, type Harness, type TestUser } from './harness.js';

let dir: string;
let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let bob: TestUser;

/**
 * Counts this process's fdatasync calls (the embedded store's group fsync) while `fn` runs. The job
 * queue is stopped meanwhile: its claims of other jobs, landing between two of the poll's commits,
 * would sync what is committed so far on their own and make the count depend on timing.
 */
async function countFsyncs<T>(fn: () => Promise<T>): Promise<{ result: T; fsyncs: number }> {
  await h.idle();
  await h.ctx.jobs.stop();
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = proto.datasync;
  let fsyncs = 0;
  proto.datasync = function (this: FileHandle) {
    fsyncs += 1;
    return original.call(this);
  };
  try {
    return { result: await fn(), fsyncs };
  } finally {
    proto.datasync = original;
    await h.ctx.jobs.start();
  }
}

const items = (from: number, to: number, title = (k: number) => `Post ${k}`) =>
  Array.from({ length: to - from + 1 }, (_, i) => to - i).map((k) => ({ guid: `p${k}`, title: title(k) }));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-reader-poll-fsyncs-'));
  h = await startReader({ STORE_URL: `file:${dir}` });
  feeds = await startFeedServer();
  ann = h.identity.addUser('ann');
  bob = h.identity.addUser('bob');
});

afterAll(async () => {
  await h?.stop();
  await feeds?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a polled feed on the embedded file store', () => {
  test('5 new and 3 changed entries for 2 subscribers: one fsync, and everyone sees them', async () => {
    feeds.set('/work.xml', { body: rssWithItems('Work', items(1, 10)) });
    const sub = await h.subscribe(ann, feeds.url('/work.xml'));
    await h.subscribe(bob, feeds.url('/work.xml'));
    const unreadBefore = (await h.get(bob, '/feeds/v2/unread_entries.json')).json().length;

    // Five new posts; posts 8–10 retitled (changed entries, rewritten in place).
    feeds.set('/work.xml', {
      body: rssWithItems(
        'Work',
        items(6, 15, (k) => (k >= 8 && k <= 10 ? `Post ${k}, revised` : `Post ${k}`)),
      ),
    });
    const { result, fsyncs } = await countFsyncs(() => refreshFeed(h.ctx, sub.feed_id));

    expect(result).toBe('stored');
    expect(fsyncs).toBe(1);
    for (const user of [ann, bob]) {
      const entries = (await h.get(user, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json();
      const titles = entries.map((e: { title: string }) => e.title);
      expect(titles).toEqual(expect.arrayContaining(['Post 15', 'Post 11', 'Post 9, revised']));
      expect(entries).toHaveLength(15);
    }
    expect((await h.get(bob, '/feeds/v2/unread_entries.json')).json()).toHaveLength(unreadBefore + 5);
  });

  test('a 304 waits for no fsync: the schedule it writes is what the next poll recreates', async () => {
    feeds.set('/quiet.xml', (req) =>
      req.headers['if-none-match'] === '"v1"'
        ? { status: 304 }
        : { body: rssWithItems('Quiet', items(1, 3)), headers: { etag: '"v1"' } },
    );
    const sub = await h.subscribe(ann, feeds.url('/quiet.xml'));
    const before = await h.ctx.store.feedById(sub.feed_id);
    h.clock.advance(60_000);
    const { result, fsyncs } = await countFsyncs(() => refreshFeed(h.ctx, sub.feed_id));
    expect(result).toBe('not-modified');
    expect(fsyncs).toBe(0);
    const after = await h.ctx.store.feedById(sub.feed_id);
    expect(after!.lastCheckedAt!.getTime()).toBeGreaterThan(before!.lastCheckedAt!.getTime());
  });

  test('unsubscribing the last reader: the count is on disk when the answer comes', async () => {
    feeds.set('/gone.xml', { body: rssWithItems('Gone', items(1, 2)) });
    const sub = await h.subscribe(ann, feeds.url('/gone.xml'));
    const { result, fsyncs } = await countFsyncs(() =>
      h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${sub.id}.json`),
    );
    expect(result.statusCode).toBe(204);
    // The count's commit came before the request's last durable write, whose fsync covers it.
    expect(fsyncs).toBeGreaterThan(0);
    expect((await h.ctx.store.feedById(sub.feed_id))!.subscriberCount).toBe(0);
  });
});
