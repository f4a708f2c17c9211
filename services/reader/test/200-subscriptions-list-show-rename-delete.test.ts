// Subscriptions after creation: list (since, mode=extended), show, rename (PATCH and update.json),
// delete (204 text/plain), and update.json queueing exactly one refresh.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { READER_TIME, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let rss: { id: number; feed_id: number; created_at: string };
let json: { id: number; feed_id: number; created_at: string };

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  rss = (await h.subscribe(ann, feeds.url('/rss2.xml'))) as typeof rss;
  json = (await h.subscribe(ann, feeds.url('/feed11.json'))) as typeof json;
});

describe('list and show', () => {
  test('newest first; since keeps those created strictly after it', async () => {
    const list = (await h.get(ann, '/feeds/v2/subscriptions.json')).json();
    expect(list.map((s: { id: number }) => s.id)).toEqual([json.id, rss.id]);
    for (const s of list) expect(s.created_at).toMatch(READER_TIME);
    const since = await h.get(
      ann,
      `/feeds/v2/subscriptions.json?since=${encodeURIComponent(rss.created_at)}`,
    );
    expect(since.json().map((s: { id: number }) => s.id)).toEqual([json.id]);
    expect((await h.get(ann, '/feeds/v2/subscriptions.json?since=soon')).json()).toEqual({
      status: 400,
      message: 'Bad Request',
      errors: [{ since: 'Must be an ISO 8601 timestamp, e.g. 2026-11-21T08:30:00.123456Z' }],
    });
  });

  test('mode=extended adds json_feed (null for RSS) and the polling state', async () => {
    const list = (await h.get(ann, '/feeds/v2/subscriptions.json?mode=extended')).json();
    const j = list.find((s: { id: number }) => s.id === json.id);
    expect(j.json_feed).toEqual({
      favicon: 'https://json-eleven.example/favicon.png',
      icon: null,
      feed_url: 'https://json-eleven.example/feed.json',
      home_page_url: 'https://json-eleven.example/',
      title: 'JSON Eleven',
      version: 'https://jsonfeed.org/version/1.1',
    });
    const r = list.find((s: { id: number }) => s.id === rss.id);
    expect(r.json_feed).toBeNull();
    expect(r.last_error).toBeNull();
    expect(r.last_checked_at).toMatch(READER_TIME);
    expect(r.next_check_at).toMatch(READER_TIME);
    const minutes = (Date.parse(r.next_check_at) - Date.parse(r.last_checked_at)) / 60_000;
    expect(minutes).toBeGreaterThanOrEqual(15 * 0.9);
    expect(minutes).toBeLessThanOrEqual(24 * 60 * 1.1);
  });

  test('show one; mode=extended too', async () => {
    const res = await h.get(ann, `/feeds/v2/subscriptions/${rss.id}.json`);
    expect(res.json()).toMatchObject({ id: rss.id, feed_id: rss.feed_id, title: 'Example Blog' });
    expect(
      (await h.get(ann, `/feeds/v2/subscriptions/${json.id}.json?mode=extended`)).json().json_feed.version,
    ).toBe('https://jsonfeed.org/version/1.1');
  });
});

describe('rename', () => {
  test('PATCH with a title → 200 with the trimmed title', async () => {
    const res = await h.req(ann, 'PATCH', `/feeds/v2/subscriptions/${rss.id}.json`, { title: '  My blog  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('My blog');
    expect((await h.get(ann, `/feeds/v2/subscriptions/${rss.id}.json`)).json().title).toBe('My blog');
  });

  test.each([
    ['missing', {}, 'Is required'],
    ['empty', { title: '   ' }, 'Must be 1 to 255 characters'],
    ['too long', { title: 'x'.repeat(256) }, 'Must be 1 to 255 characters'],
  ])('PATCH with a %s title → 400 and no change', async (_what, body, message) => {
    const res = await h.req(ann, 'PATCH', `/feeds/v2/subscriptions/${rss.id}.json`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ title: message }]);
    expect((await h.get(ann, `/feeds/v2/subscriptions/${rss.id}.json`)).json().title).toBe('My blog');
  });

  test('POST …/update.json with a title renames (form-encoded, as NetNewsWire may send it)', async () => {
    const res = await h.req(
      ann,
      'POST',
      `/feeds/v2/subscriptions/${rss.id}/update.json`,
      'title=Via%20update',
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Via update');
  });
});

describe('refresh', () => {
  test('update.json returns the subscription and queues exactly one refresh job', async () => {
    await h.idle();
    feeds.set('/rss2.xml', {
      delayMs: 300,
      body: '<rss version="2.0"><channel><title>Slow</title></channel></rss>',
    });
    const jobs = h.store.collection('jobs');
    const refreshJobs = () =>
      jobs.countDocuments({ type: 'reader.feed.refresh', 'payload.feedId': rss.feed_id });
    const before = await refreshJobs();
    const [a, b] = await Promise.all([
      h.req(ann, 'POST', `/feeds/v2/subscriptions/${rss.id}/update.json`),
      h.req(ann, 'POST', `/feeds/v2/subscriptions/${rss.id}/update.json`),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toMatchObject({ id: rss.id, feed_id: rss.feed_id });
    expect((await refreshJobs()) - before).toBe(1);
    await h.idle();
    expect(feeds.hits('/rss2.xml')).toBeGreaterThanOrEqual(2);
  });
});

describe('delete', () => {
  test('DELETE → 204 text/plain with an empty body; then 404; unread entries of the feed are gone', async () => {
    const unreadBefore: number[] = (await h.get(ann, '/feeds/v2/unread_entries.json')).json();
    const ofFeed = (await h.get(ann, `/feeds/v2/feeds/${json.feed_id}/entries.json`))
      .json()
      .map((e: { id: number }) => e.id);
    expect(unreadBefore).toEqual(expect.arrayContaining(ofFeed));
    const res = await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${json.id}.json`);
    expect(res.statusCode).toBe(204);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('');
    expect((await h.get(ann, `/feeds/v2/subscriptions/${json.id}.json`)).statusCode).toBe(404);
    expect((await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${json.id}.json`)).statusCode).toBe(404);
    const unreadAfter: number[] = (await h.get(ann, '/feeds/v2/unread_entries.json')).json();
    for (const id of ofFeed) expect(unreadAfter).not.toContain(id);
    expect(
      (await h.get(ann, '/feeds/v2/subscriptions.json')).json().map((s: { id: number }) => s.id),
    ).toEqual([rss.id]);
  });
});
