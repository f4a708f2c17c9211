// A user reading while their feeds are polled (issue 38): each poll that brings new entries bumps the
// user's state version, and every request checks that version. Entries written by this process are
// merged into the cached view in place (domain/views.ts, afterArrival), so the next request builds
// nothing — the rebuild reads every subscription's feed and timeline and decodes the unread set, which
// made a 1,000-feed user pay for all 1,000 feeds after each poll. What the user sees must be exactly what
// a fresh build shows: that is checked against a view rebuilt after another writer's change.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { refreshFeed } from '../src/jobs/refresh.js';
import { rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let builds = 0;

const items = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => to - i).map((k) => ({
    guid: `${prefix}${k}`,
    title: `${prefix} ${k}`,
  }));

/** Everything a Feedbin client reads of the user's view. */
async function whatAnnSees(): Promise<unknown[]> {
  const paths = [
    '/feeds/v2/entries.json?per_page=7',
    '/feeds/v2/entries.json?per_page=7&page=2',
    '/feeds/v2/entries.json?read=false&per_page=100',
    '/feeds/v2/unread_entries.json',
    '/feeds/v2/subscriptions.json',
  ];
  const out: unknown[] = [];
  for (const path of paths) {
    const res = await h.get(ann, path);
    expect(res.statusCode).toBe(200);
    out.push({ path, body: res.json(), link: res.headers.link ?? null });
  }
  return out;
}

beforeAll(async () => {
  h = await startReader();
  feeds = await startFeedServer();
  ann = h.identity.addUser('ann');
  // Counts view builds: a build starts by listing the user's subscriptions.
  const store = h.ctx.store;
  const original = store.subscriptionsOfUser.bind(store);
  store.subscriptionsOfUser = (userId: number) => {
    builds += 1;
    return original(userId);
  };
});

afterAll(async () => {
  await h?.stop();
  await feeds?.close();
});

describe("polled entries and a user's cached view", () => {
  test('new entries of three feeds: no rebuild, and the same pages, unread ids and links as a fresh build', async () => {
    const subs = [];
    for (const name of ['a', 'b', 'c']) {
      feeds.set(`/${name}.xml`, { body: rssWithItems(`Feed ${name}`, items(name, 1, 4)) });
      subs.push(await h.subscribe(ann, feeds.url(`/${name}.xml`)));
    }
    // Some read, one starred, so the sets are not trivial.
    const first = (await h.get(ann, '/feeds/v2/entries.json?per_page=3')).json() as { id: number }[];
    await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', { unread_entries: [first[0]!.id] });
    await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', { starred_entries: [first[1]!.id] });
    await whatAnnSees();
    const before = builds;

    feeds.set('/b.xml', { body: rssWithItems('Feed b', items('b', 1, 7)) });
    expect(await refreshFeed(h.ctx, subs[1]!.feed_id)).toBe('stored');
    feeds.set('/a.xml', { body: rssWithItems('Feed a', items('a', 1, 6)) });
    expect(await refreshFeed(h.ctx, subs[0]!.feed_id)).toBe('stored');
    const seen = await whatAnnSees();
    expect(builds).toBe(before);

    const unread = (await h.get(ann, '/feeds/v2/unread_entries.json')).json() as number[];
    expect(unread).toHaveLength(12 - 1 + 3 + 2);
    const titles = (
      (await h.get(ann, '/feeds/v2/entries.json?per_page=5')).json() as { title: string }[]
    ).map((e) => e.title);
    expect(titles).toEqual(['a 6', 'a 5', 'b 7', 'b 6', 'b 5']);

    // Another writer's change (as from a second reader process): this process cannot apply it, so the
    // next request rebuilds — and must see exactly what the in-place view showed.
    await h.ctx.states.touch(ann.id);
    expect(await whatAnnSees()).toEqual(seen);
    expect(builds).toBe(before + 1);
  });

  test('a retitled feed shows its new title in subscriptions at once, still without a rebuild', async () => {
    feeds.set('/t.xml', { body: rssWithItems('Old title', items('t', 1, 2)) });
    const sub = await h.subscribe(ann, feeds.url('/t.xml'));
    await whatAnnSees();
    const before = builds;
    feeds.set('/t.xml', { body: rssWithItems('New title', items('t', 1, 3)) });
    expect(await refreshFeed(h.ctx, sub.feed_id)).toBe('stored');
    const listed = (await h.get(ann, '/feeds/v2/subscriptions.json')).json() as {
      feed_id: number;
      title: string;
    }[];
    expect(listed.find((s) => s.feed_id === sub.feed_id)?.title).toBe('New title');
    expect(builds).toBe(before);
  });

  test('a poll that lands while a rebuild reads is in the rebuilt view once, not twice', async () => {
    feeds.set('/r.xml', { body: rssWithItems('Race', items('r', 1, 3)) });
    const sub = await h.subscribe(ann, feeds.url('/r.xml'));
    await whatAnnSees();
    // Another process's write: this process's view is behind, and the next request rebuilds it.
    await h.ctx.states.touch(ann.id);
    // The rebuild has read the state; before it reads the timelines, a poll commits three new entries
    // (its change waits for the view: the one cached is behind).
    const store = h.ctx.store;
    const original = store.timelinesOfFeeds.bind(store);
    store.timelinesOfFeeds = async (ids: number[]) => {
      store.timelinesOfFeeds = original;
      feeds.set('/r.xml', { body: rssWithItems('Race', items('r', 1, 6)) });
      expect(await refreshFeed(h.ctx, sub.feed_id)).toBe('stored');
      return original(ids);
    };
    const entries = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json() as {
      id: number;
      title: string;
    }[];
    expect(store.timelinesOfFeeds).toBe(original);
    expect(entries.map((e) => e.title)).toEqual(['r 6', 'r 5', 'r 4', 'r 3', 'r 2', 'r 1']);
    const all = (await h.get(ann, '/feeds/v2/entries.json?per_page=100')).json() as { id: number }[];
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });
});
