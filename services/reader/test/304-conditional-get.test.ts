// Conditional GETs: every GET sends an ETag, If-None-Match with it → 304 with an empty body, a change
// makes the next one 200; lists honour If-Modified-Since; every response carries a Date header.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let entryId: number;
let subId: number;

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  subId = (await h.subscribe(ann, feeds.url('/rss2.xml'))).id;
  entryId = (await h.get(ann, '/feeds/v2/unread_entries.json')).json()[0];
  await h.req(ann, 'POST', `/feeds/${entryId}/highlights`, { text: 'hello' });
});

const GETS = [
  '/feeds/v2/entries.json',
  '/feeds/v2/entries/ENTRY.json',
  '/feeds/v2/unread_entries.json',
  '/feeds/v2/starred_entries.json',
  '/feeds/v2/subscriptions.json',
  '/feeds/v2/subscriptions/SUB.json',
  '/feeds/v2/taggings.json',
  '/feeds/v2/tags.json',
  '/feeds/v2/icons.json',
  '/feeds/v2/subscriptions.xml',
  '/feeds/highlights',
  '/feeds/ENTRY/highlights',
  '/feeds/recap/email',
];

describe('ETag and If-None-Match', () => {
  test.each(GETS)('GET %s: ETag, then 304 with an empty body', async (path) => {
    const url = path.replace('ENTRY', String(entryId)).replace('SUB', String(subId));
    const first = await h.get(ann, url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await h.get(ann, url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.date).toBeDefined();
    expect((await h.get(ann, url, { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304);
    expect((await h.get(ann, url, { 'if-none-match': '"different"' })).statusCode).toBe(200);
  });

  test('after a mark-read the unread list and the entries list answer 200 again', async () => {
    const unread = await h.get(ann, '/feeds/v2/unread_entries.json');
    const entries = await h.get(ann, '/feeds/v2/entries.json?read=false');
    await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', [entryId]);
    const unreadAgain = await h.get(ann, '/feeds/v2/unread_entries.json', {
      'if-none-match': unread.headers.etag as string,
    });
    expect(unreadAgain.statusCode).toBe(200);
    expect(unreadAgain.json()).not.toContain(entryId);
    const entriesAgain = await h.get(ann, '/feeds/v2/entries.json?read=false', {
      'if-none-match': entries.headers.etag as string,
    });
    expect(entriesAgain.statusCode).toBe(200);
  });
});

describe('a body outside ASCII', () => {
  test('Content-Length counts its bytes, the text arrives whole and the ETag holds', async () => {
    const title = 'Ünïcödé — ☃ and 🐦';
    await h.req(ann, 'PATCH', `/feeds/v2/subscriptions/${subId}.json`, { title });
    const first = await h.get(ann, `/feeds/v2/subscriptions/${subId}.json`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.body));
    expect(Buffer.byteLength(first.body)).toBeGreaterThan(first.body.length);
    expect(first.json().title).toBe(title);
    const again = await h.get(ann, `/feeds/v2/subscriptions/${subId}.json`);
    expect(again.headers.etag).toBe(first.headers.etag);
    const notModified = await h.get(ann, `/feeds/v2/subscriptions/${subId}.json`, {
      'if-none-match': first.headers.etag as string,
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });
});

describe('Last-Modified and If-Modified-Since', () => {
  test('an unchanged list → 304; after a change → 200 with a later Last-Modified', async () => {
    // Last-Modified is announced once the second of the last change is over.
    h.clock.advance(1000);
    const first = await h.get(ann, '/feeds/v2/subscriptions.json');
    const lastModified = first.headers['last-modified'] as string;
    expect(Date.parse(lastModified)).toBeLessThan(h.clock.nowMs());
    expect(
      (await h.get(ann, '/feeds/v2/subscriptions.json', { 'if-modified-since': lastModified })).statusCode,
    ).toBe(304);
    await h.req(ann, 'PATCH', `/feeds/v2/subscriptions/${subId}.json`, { title: 'Renamed' });
    const after = await h.get(ann, '/feeds/v2/subscriptions.json', { 'if-modified-since': lastModified });
    expect(after.statusCode).toBe(200);
    expect(after.json()[0].title).toBe('Renamed');
  });

  test('no Last-Modified while the last change is in the current second', async () => {
    await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [entryId]);
    const res = await h.get(ann, '/feeds/v2/starred_entries.json');
    expect(res.headers['last-modified']).toBeUndefined();
    h.clock.advance(1000);
    const later = await h.get(ann, '/feeds/v2/starred_entries.json');
    expect(Date.parse(later.headers['last-modified'] as string)).toBeLessThanOrEqual(h.clock.nowMs() - 1000);
  });

  test('If-None-Match wins over If-Modified-Since', async () => {
    const first = await h.get(ann, '/feeds/v2/starred_entries.json');
    const res = await h.get(ann, '/feeds/v2/starred_entries.json', {
      'if-none-match': '"stale"',
      'if-modified-since': new Date(h.clock.nowMs() + 3600_000).toUTCString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(first.body);
  });
});

describe('Date', () => {
  test.each([
    ['GET', '/feeds/v2/entries.json?per_page=0'],
    ['GET', '/feeds/v2/entries/999999.json'],
    ['POST', '/feeds/v2/starred_entries.json'],
    ['DELETE', '/feeds/v2/taggings/999.json'],
    ['GET', '/feeds/v2/authentication.json'],
  ])('%s %s carries a Date header from the reader clock', async (method, url) => {
    const res = await h.req(ann, method, url);
    expect(Math.abs(Date.parse(res.headers.date as string) - h.clock.nowMs())).toBeLessThan(1000);
  });
});
