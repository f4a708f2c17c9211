// Invalid parameters of entry lists → 400 naming the parameter in the Feedbin shape; bad path ids → 404.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let feedId: number;

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  feedId = (await h.subscribe(ann, feeds.url('/rss2.xml'))).feed_id;
});

describe.each(['/feeds/v2/entries.json', '/feeds/v2/feeds/FEED/entries.json'])('%s', (path) => {
  test.each([
    ['per_page=0', 'per_page'],
    ['per_page=x', 'per_page'],
    ['per_page=1.5', 'per_page'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['since=yesterday', 'since'],
    ['since=2026-13-01', 'since'],
    ['read=maybe', 'read'],
    ['starred=yes', 'starred'],
  ])('%s → 400 naming %s', async (query, param) => {
    const res = await h.get(ann, `${path.replace('FEED', String(feedId))}?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.status).toBe(400);
    expect(body.message).toBe('Bad Request');
    expect(Object.keys(body.errors[0])).toEqual([param]);
    expect(body.errors[0][param]).toMatch(/^[A-Z]/);
  });
});

describe('ids', () => {
  test('101 ids → 400 with the documented body', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    const res = await h.get(ann, `/feeds/v2/entries.json?ids=${ids}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: 'Bad Request',
      errors: [{ ids: 'At most 100 ids per request' }],
    });
  });

  test('a non-integer id → 400 naming ids', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?ids=1,x');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ ids: 'At most 100 ids per request' }]);
  });

  test('unknown ids are dropped silently', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?ids=99999,1');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((e: { id: number }) => e.id)).toEqual([1]);
  });
});

describe('path ids', () => {
  test.each(['abc', '0', '-1', '1.5', '99999999999999999999'])('entries/%s.json → 404', async (id) => {
    const res = await h.get(ann, `/feeds/v2/entries/${id}.json`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Not Found', errors: [] });
  });

  test('an unknown entry → 404; an unsubscribed feed’s entries → 404', async () => {
    expect((await h.get(ann, '/feeds/v2/entries/424242.json')).statusCode).toBe(404);
    expect((await h.get(ann, '/feeds/v2/feeds/424242/entries.json')).statusCode).toBe(404);
  });
});
