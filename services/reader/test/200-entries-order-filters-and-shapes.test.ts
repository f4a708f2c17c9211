// GET /feeds/v2/entries.json: order, `since`, `read`/`starred` filters, `per_page` defaults and
// clamping, empty first pages, timestamps, and the enclosure / extended shapes.
import { describe, expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { READER_TIME, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let all: Array<{ id: number; created_at: string; feed_id: number }>;

const items = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ guid: `${prefix}-${n - i}`, title: `${prefix} ${n - i}` }));

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  feeds.set('/big-a.xml', { body: rssWithItems('Big A', items('a', 700)) });
  feeds.set('/big-b.xml', { body: rssWithItems('Big B', items('b', 600)) });
  await h.subscribe(ann, feeds.url('/big-a.xml'));
  await h.subscribe(ann, feeds.url('/big-b.xml'));
  await h.subscribe(ann, feeds.url('/rss2.xml'));
  await h.subscribe(ann, feeds.url('/feed1.json'));
  all = (await h.get(ann, '/feeds/v2/entries.json?per_page=5000')).json();
});

describe('order and page size', () => {
  test('per_page=5000 is clamped to 1000, newest created_at first, then id', async () => {
    expect(all).toHaveLength(1000);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)).toBe(true);
    }
    const count = await h.get(ann, '/feeds/v2/entries.json?per_page=5000');
    expect(count.headers['x-feedbin-record-count']).toBe('1304');
  });

  test('per_page defaults to 100', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json');
    expect(res.json()).toHaveLength(100);
    expect(res.json().map((e: { id: number }) => e.id)).toEqual(all.slice(0, 100).map((e) => e.id));
  });

  test('timestamps have six fraction digits and Z', () => {
    for (const e of all.slice(0, 50)) expect(e.created_at).toMatch(READER_TIME);
  });
});

describe('since', () => {
  test('excludes an entry whose created_at equals it', async () => {
    const pivot = all[10]!;
    const res = await h.get(ann, `/feeds/v2/entries.json?since=${encodeURIComponent(pivot.created_at)}`);
    expect(res.json().map((e: { id: number }) => e.id)).toEqual(all.slice(0, 10).map((e) => e.id));
    expect(res.headers['x-feedbin-record-count']).toBe('10');
  });

  test('accepts a date alone, and an offset form', async () => {
    expect((await h.get(ann, '/feeds/v2/entries.json?since=2026-11-01')).statusCode).toBe(200);
    const future = await h.get(ann, '/feeds/v2/entries.json?since=2999-01-01T00:00%2B02:00');
    expect(future.statusCode).toBe(200);
    expect(future.json()).toEqual([]);
  });

  test('the previous response’s Date header works as since for the next sync: nothing is missed', async () => {
    const first = await h.get(ann, '/feeds/v2/entries.json?per_page=1');
    const since = new Date(first.headers.date!).toISOString();
    const sinceQuery = `/feeds/v2/entries.json?per_page=1000&since=${encodeURIComponent(since)}`;
    // HTTP dates have whole seconds: what arrived within that second comes again, never less.
    for (const e of (await h.get(ann, sinceQuery)).json()) expect(e.created_at > since).toBe(true);
    feeds.set('/rss2.xml', {
      body: rssWithItems('Example Blog', [{ guid: 'brand-new', title: 'Brand new' }]),
    });
    const subs = (await h.get(ann, '/feeds/v2/subscriptions.json')).json();
    await h.refresh(subs.find((s: { feed_url: string }) => s.feed_url.endsWith('/rss2.xml')).feed_id);
    const after = (await h.get(ann, sinceQuery)).json();
    expect(after[0].title).toBe('Brand new');
  });
});

describe('read and starred filters', () => {
  test('read=false returns only unread, read=true only read, starred=true only starred', async () => {
    const unread: number[] = (await h.get(ann, '/feeds/v2/unread_entries.json')).json();
    const page = (await h.get(ann, '/feeds/v2/entries.json?read=false&per_page=1000')).json();
    expect(page.map((e: { id: number }) => e.id).sort()).toEqual([...unread].sort());
    const read = (await h.get(ann, '/feeds/v2/entries.json?read=true&per_page=50')).json();
    expect(read.length).toBe(50);
    for (const e of read) expect(unread).not.toContain(e.id);

    const star = all.slice(3, 6).map((e) => e.id);
    await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', { starred_entries: star });
    const starred = (await h.get(ann, '/feeds/v2/entries.json?starred=true')).json();
    expect(starred.map((e: { id: number }) => e.id)).toEqual(star);
    const unreadStarred = await h.get(ann, '/feeds/v2/entries.json?starred=true&read=false');
    expect(unreadStarred.headers['x-feedbin-record-count']).toBe(String(unreadStarred.json().length));
  });

  test('page 1 without matches: 200 [] with X-Feedbin-Record-Count: 0 and no link headers', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?since=2999-01-01');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-feedbin-record-count']).toBe('0');
    expect(res.headers.link).toBeUndefined();
    expect(res.headers.links).toBeUndefined();
  });

  test('page 2 beyond the data → 404 in the Feedbin shape', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?since=2999-01-01&page=2');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Not Found', errors: [] });
    expect((await h.get(ann, '/feeds/v2/entries.json?page=15')).statusCode).toBe(404);
  });
});

describe('shapes', () => {
  const enclosureOf = async (query: string) => {
    const list = (await h.get(ann, `/feeds/v2/entries.json?per_page=1000&${query}`)).json();
    return list.filter((e: Record<string, unknown>) => 'enclosure' in e);
  };

  test('include_enclosure=true adds enclosure (string length) only to entries that have one', async () => {
    const withEnclosure = await enclosureOf('include_enclosure=true');
    expect(withEnclosure.map((e: { title: string }) => e.title).sort()).toEqual([
      'Episode 1',
      'Version one item',
    ]);
    const json = withEnclosure.find((e: { title: string }) => e.title === 'Version one item');
    expect(json.enclosure).toEqual({
      enclosure_url: 'https://json-one.example/audio.m4a',
      enclosure_type: 'audio/x-m4a',
      enclosure_length: '89970236',
      itunes_duration: '6629',
    });
    expect(await enclosureOf('include_enclosure=false')).toHaveLength(0);
  });

  test('plain entries have exactly the documented keys, in order', async () => {
    const [entry] = (await h.get(ann, '/feeds/v2/entries.json?per_page=1')).json();
    expect(Object.keys(entry)).toEqual([
      'id', 'feed_id', 'title', 'url', 'extracted_content_url', 'author', 'content', 'summary', 'published', 'created_at',
    ]); // prettier-ignore
    // A web link gets the signed extracted-content address (200-extracted-content-url-serves-the-article).
    expect(entry.extracted_content_url).toMatch(
      new RegExp(`^http://murmur\\.test/feeds/v2/extract/${entry.id}/[A-Za-z0-9_-]{22}\\.json$`),
    );
  });

  test('mode=extended adds original, images, enclosure, extracted_articles and json_feed', async () => {
    const list = (await h.get(ann, '/feeds/v2/entries.json?mode=extended&per_page=1000')).json();
    const json = list.find((e: { title: string }) => e.title === 'Version one item');
    expect(json).toMatchObject({
      original: null,
      images: null,
      extracted_articles: [],
      json_feed: {
        id: '1',
        image: 'https://json-one.example/img/1.png',
        author: { name: 'Kim', url: 'https://json-one.example/kim' },
      },
    });
    expect(json.published).toBe('2026-11-20T15:00:00.000000Z');
    const rss = list.find((e: { title: string }) => e.title === 'a 700');
    expect(rss).toMatchObject({ enclosure: null, json_feed: null });
    expect((await h.get(ann, '/feeds/v2/entries.json?mode=other&per_page=1')).json()[0]).not.toHaveProperty(
      'original',
    );
  });
});
