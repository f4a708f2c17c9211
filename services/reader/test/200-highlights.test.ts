// Highlights: create from query, form or JSON → {id, count}; lists as valid JSON Feed 1.1 with
// limit/offset; delete → {}. `{"error"}` error shape. They survive unsubscribing.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { PUBLIC_URL, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';
import { jsonFeed11Errors } from './json-feed.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let subId: number;
let entry: { id: number; title: string; url: string };
let other: number;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  subId = (await h.subscribe(ann, feeds.url('/rss2.xml'))).id;
  [entry, { id: other }] = (await h.get(ann, '/feeds/v2/entries.json')).json();
});

describe('create', () => {
  test('form-encoded, JSON and query all work; count rises 1, 2, 3 on one entry', async () => {
    const a = await h.req(
      ann,
      'POST',
      `/feeds/${entry.id}/highlights`,
      'text=the%20selected%20words&start=10&end=28',
      FORM,
    );
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ id: expect.any(Number), count: 1 });
    const b = await h.req(ann, 'POST', `/feeds/${entry.id}/highlights`, { text: 'second', start: 0 });
    expect(b.json().count).toBe(2);
    const c = await h.req(ann, 'POST', `/feeds/${entry.id}/highlights?text=third`);
    expect(c.json().count).toBe(3);
    expect((await h.req(ann, 'POST', `/feeds/${other}/highlights`, { text: 'elsewhere' })).json().count).toBe(
      1,
    );
  });

  test.each([
    ['no text', {}, 'text: is required'],
    ['empty text', { text: '' }, 'text: must not be empty'],
    ['blank text', { text: '   ' }, 'text: must not be blank'],
    ['text over 10,000 characters', { text: 'x'.repeat(10_001) }, 'text: must be at most 10000 characters'],
    ['end before start', { text: 'x', start: 5, end: 4 }, 'end: must not be smaller than start'],
    ['a negative start', { text: 'x', start: -1 }, 'start: must be a non-negative integer'],
    ['a fractional end', { text: 'x', end: '1.5' }, 'end: must be a non-negative integer'],
  ])('%s → 400 {"error"} and nothing stored', async (_what, body, error) => {
    const before = await h.store.collection('highlights').countDocuments({});
    const res = await h.req(ann, 'POST', `/feeds/${entry.id}/highlights`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: error });
    expect(await h.store.collection('highlights').countDocuments({})).toBe(before);
  });

  test('on an invisible or unknown entry → 404', async () => {
    expect((await h.req(ann, 'POST', '/feeds/999999/highlights', { text: 'x' })).json()).toEqual({
      error: 'No such entry.',
    });
    expect((await h.req(ann, 'POST', '/feeds/999999/highlights', { text: 'x' })).statusCode).toBe(404);
  });
});

describe('lists', () => {
  test('per entry: JSON Feed 1.1 with string ids and _service, newest first', async () => {
    const res = await h.get(ann, `/feeds/${entry.id}/highlights`);
    const feed = res.json();
    expect(jsonFeed11Errors(feed)).toEqual([]);
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.items.map((i: { content_text: string }) => i.content_text)).toEqual([
      'third',
      'second',
      'the selected words',
    ]);
    const first = feed.items[2];
    expect(first).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      title: 'Release notes',
      url: entry.url,
      content_text: 'the selected words',
      date_published: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      _service: { entry_id: entry.id, selection_start: 10, selection_end: 28 },
    });
    expect(feed.items[0]._service).toEqual({
      entry_id: entry.id,
      selection_start: null,
      selection_end: null,
    });
  });

  test('overall: limit and offset, next_url while more remain; limit=500 gives at most 100', async () => {
    const all = (await h.get(ann, '/feeds/highlights')).json();
    expect(jsonFeed11Errors(all)).toEqual([]);
    expect(all.items).toHaveLength(4);
    expect(all.feed_url).toBe(`${PUBLIC_URL}/feeds/highlights`);
    const page = (await h.get(ann, '/feeds/highlights?limit=2&offset=1')).json();
    expect(page.items.map((i: { id: string }) => i.id)).toEqual(
      all.items.slice(1, 3).map((i: { id: string }) => i.id),
    );
    expect(page.next_url).toBe(`${PUBLIC_URL}/feeds/highlights?limit=2&offset=3`);
    expect((await h.get(ann, '/feeds/highlights?limit=500')).json().items.length).toBeLessThanOrEqual(100);
  });

  test.each(['limit=0', 'limit=x', 'offset=-1', 'offset=1.5'])('%s → 400', async (query) => {
    const res = await h.get(ann, `/feeds/highlights?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^(limit|offset): /);
  });
});

describe('delete', () => {
  test('own → 200 {}; again, another entry’s id or another user’s → 404', async () => {
    const { id } = (await h.req(ann, 'POST', `/feeds/${entry.id}/highlights`, { text: 'to delete' })).json();
    expect((await h.req(ann, 'DELETE', `/feeds/${other}/highlights/${id}`)).statusCode).toBe(404);
    const bob = h.identity.addUser('bob');
    await h.subscribe(bob, feeds.url('/rss2.xml'));
    expect((await h.req(bob, 'DELETE', `/feeds/${entry.id}/highlights/${id}`)).statusCode).toBe(404);
    const res = await h.req(ann, 'DELETE', `/feeds/${entry.id}/highlights/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await h.req(ann, 'DELETE', `/feeds/${entry.id}/highlights/${id}`)).statusCode).toBe(404);
  });
});

describe('after unsubscribing', () => {
  test('the overall list keeps them; the entry’s list is 404', async () => {
    await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${subId}.json`);
    const all = (await h.get(ann, '/feeds/highlights')).json();
    expect(all.items.length).toBe(4);
    expect(all.items[0].title).toBeDefined();
    expect((await h.get(ann, `/feeds/${entry.id}/highlights`)).statusCode).toBe(404);
  });
});
