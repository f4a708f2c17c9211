// Feed polling: conditional GET and 304, permanent redirects, Retry-After, failures recorded on the
// feed (visible in extended mode), refused XML, size caps, the per-host limit, new entries unread
// for every subscriber, and the scheduler picking up due feeds.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { enqueueDueFeeds } from '../src/jobs/scheduler.js';
import { fixture, rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

async function extended(user: TestUser, subId: number) {
  return (await h.get(user, `/feeds/v2/subscriptions/${subId}.json?mode=extended`)).json();
}
const count = async (user: TestUser, feedId: number) =>
  (await h.get(user, `/feeds/v2/feeds/${feedId}/entries.json`)).json().length;

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

describe('conditional GET', () => {
  test('stored ETag and Last-Modified are sent; 304 changes only the check times', async () => {
    const lastModified = 'Fri, 20 Nov 2026 10:00:00 GMT';
    feeds.set('/cond.xml', ({ headers }) =>
      headers['if-none-match'] === '"v1"'
        ? { status: 304 }
        : { body: fixture('rss2.xml'), headers: { etag: '"v1"', 'last-modified': lastModified } },
    );
    const sub = await h.subscribe(ann, feeds.url('/cond.xml'));
    const before = await extended(ann, sub.id);
    const entries = await count(ann, sub.feed_id);
    h.clock.advance(60_000);
    await h.refresh(sub.feed_id);
    const last = feeds.requests.filter((r) => r.path === '/cond.xml').pop()!;
    expect(last.headers['if-none-match']).toBe('"v1"');
    expect(last.headers['if-modified-since']).toBe(lastModified);
    expect(await count(ann, sub.feed_id)).toBe(entries);
    const after = await extended(ann, sub.id);
    expect(after.last_checked_at > before.last_checked_at).toBe(true);
    expect(after.last_error).toBeNull();
  });
});

describe('redirects', () => {
  test('a 301 updates the stored feed URL; a 302 does not', async () => {
    feeds.set('/old.xml', { body: fixture('atom.xml') });
    const sub = await h.subscribe(ann, feeds.url('/old.xml'));
    feeds.set('/old.xml', { status: 302, headers: { location: '/atom.xml' } });
    await h.refresh(sub.feed_id);
    expect((await extended(ann, sub.id)).feed_url).toBe(feeds.url('/old.xml'));
    feeds.set('/old.xml', { status: 301, headers: { location: '/new-home.xml' } });
    feeds.set('/new-home.xml', { body: fixture('atom.xml') });
    await h.refresh(sub.feed_id);
    expect((await extended(ann, sub.id)).feed_url).toBe(feeds.url('/new-home.xml'));
    await h.refresh(sub.feed_id);
    expect(feeds.hits('/new-home.xml')).toBe(2);
  });
});

describe('failures are recorded per feed', () => {
  let sub: { id: number; feed_id: number };
  beforeAll(async () => {
    feeds.set('/flaky.xml', { body: fixture('rss2.xml') });
    sub = await h.subscribe(ann, feeds.url('/flaky.xml'));
  });

  test.each([
    ['HTTP 500', { status: 500, body: 'boom' }, /^HTTP 500$/],
    ['a malformed feed', { body: fixture('malformed.xml') }, /not a feed|malformed/],
    [
      'an HTML page',
      { body: fixture('page-none.html'), headers: { 'content-type': 'text/html' } },
      /not a feed/,
    ],
    ['entity declarations', { body: fixture('entities.xml') }, /DOCTYPE internal subset or entity/],
    [
      'a body over 15 MB',
      { body: `<rss>${'x'.repeat(15 * 1024 * 1024 + 10)}</rss>` },
      /larger than 15728640 bytes/,
    ],
  ])('%s: last_error set, entries kept, backoff', async (_what, answer, error) => {
    const entries = await count(ann, sub.feed_id);
    feeds.set('/flaky.xml', answer);
    await h.refresh(sub.feed_id);
    const state = await extended(ann, sub.id);
    expect(state.last_error).toMatch(error);
    expect(await count(ann, sub.feed_id)).toBe(entries);
    expect(Date.parse(state.next_check_at)).toBeGreaterThan(Date.now() + 15 * 60_000);
    const titles = (await h.store.collection('entries').find({})).map((e) => String(e.title));
    expect(titles.some((t) => t.includes('aaaaaaaaaa'))).toBe(false);
  });

  test('429 with Retry-After: the next check is not before it', async () => {
    feeds.set('/flaky.xml', { status: 429, headers: { 'retry-after': '172800' } });
    await h.refresh(sub.feed_id);
    const state = await extended(ann, sub.id);
    expect(state.last_error).toBe('HTTP 429');
    expect(Date.parse(state.next_check_at)).toBeGreaterThanOrEqual(Date.now() + 172_000_000);
  });

  test('a success clears last_error', async () => {
    feeds.set('/flaky.xml', { body: fixture('rss2.xml') });
    await h.refresh(sub.feed_id);
    expect((await extended(ann, sub.id)).last_error).toBeNull();
  });
});

describe('politeness', () => {
  test('at most 2 requests at once to one host', async () => {
    const host = await startFeedServer({ fixtures: false });
    const subs = [];
    for (let i = 0; i < 6; i++) {
      host.set(`/f${i}.xml`, { body: rssWithItems(`F${i}`, [{ guid: `g${i}`, title: `T${i}` }]) });
      subs.push(await h.subscribe(ann, host.url(`/f${i}.xml`)));
    }
    for (let i = 0; i < 6; i++) host.set(`/f${i}.xml`, { delayMs: 150, body: rssWithItems(`F${i}`, []) });
    const started = host.requests.length;
    await Promise.all(
      subs.map((s) =>
        h.ctx.jobs.enqueue('reader.feed.refresh', { feedId: s.feed_id }, { key: `feed:${s.feed_id}` }),
      ),
    );
    await h.idle();
    expect(host.requests.length - started).toBe(6);
    expect(host.maxConcurrent()).toBe(2);
    await host.close();
  });
});

describe('new entries', () => {
  test('arrive unread for every subscriber of the shared feed', async () => {
    const bob = h.identity.addUser('bob');
    feeds.set('/shared.xml', { body: rssWithItems('Shared', [{ guid: 's1', title: 'One' }]) });
    const annSub = await h.subscribe(ann, feeds.url('/shared.xml'));
    const bobSub = await h.subscribe(bob, feeds.url('/shared.xml'));
    expect(bobSub.feed_id).toBe(annSub.feed_id);
    const first = (await h.get(ann, `/feeds/v2/feeds/${annSub.feed_id}/entries.json`)).json()[0].id;
    await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', [first]);
    feeds.set('/shared.xml', {
      body: rssWithItems('Shared', [
        { guid: 's2', title: 'Two' },
        { guid: 's1', title: 'One' },
      ]),
    });
    await h.refresh(annSub.feed_id);
    const [newest] = (await h.get(ann, `/feeds/v2/feeds/${annSub.feed_id}/entries.json`)).json();
    expect(newest.title).toBe('Two');
    expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).toContain(newest.id);
    expect((await h.get(bob, '/feeds/v2/unread_entries.json')).json()).toEqual(
      expect.arrayContaining([first, newest.id]),
    );
    expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).not.toContain(first);
  });
});

describe('the scheduler', () => {
  test('queues a refresh for every subscribed feed once its next check is due', async () => {
    await h.idle();
    h.clock.advance(3 * 24 * 60 * 60_000);
    const jumped = h.clock.nowMs();
    const subscribed = await h.store.collection('feeds').countDocuments({ subscriberCount: { $gt: 0 } });
    expect(await enqueueDueFeeds(h.ctx)).toBe(subscribed);
    await h.idle();
    for (const feed of await h.store.collection('feeds').find({ subscriberCount: { $gt: 0 } })) {
      expect((feed.lastCheckedAt as Date).getTime()).toBeGreaterThanOrEqual(jumped);
    }
    // Each is queued once: the next checks lie in the future again.
    expect(await enqueueDueFeeds(h.ctx)).toBe(0);
  });
});
