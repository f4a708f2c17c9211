// A client that sends only If-Modified-Since (the `Last-Modified` it was given) gets 304 for every list
// that did not change since — also when something else of the user's changed meanwhile — and 200 with
// a later `Last-Modified` for the list that did.
import { beforeAll, expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let sub: { id: number; feed_id: number };
let entryIds: number[];

const LISTS = [
  '/feeds/v2/subscriptions.json',
  '/feeds/v2/unread_entries.json',
  '/feeds/v2/starred_entries.json',
  '/feeds/v2/taggings.json',
  '/feeds/v2/tags.json',
  '/feeds/v2/subscriptions.xml',
] as const;
type List = (typeof LISTS)[number];

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

beforeAll(async () => {
  feeds.set('/ims.xml', {
    body: rssWithItems('IMS', [
      { guid: 'a', title: 'A' },
      { guid: 'b', title: 'B' },
    ]),
    headers: { 'content-type': 'application/rss+xml' },
  });
  sub = await h.subscribe(ann, feeds.url('/ims.xml'));
  await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: sub.feed_id, name: 'News' });
  entryIds = (await h.get(ann, '/feeds/v2/unread_entries.json')).json();
  await h.idle();
});

/** Every list's Last-Modified as a client would keep it, once the second of the last change is over. */
async function lastModifiedOfAll(): Promise<Record<List, string>> {
  h.clock.advance(1000);
  const out = {} as Record<List, string>;
  for (const path of LISTS) {
    const res = await h.get(ann, path);
    expect(res.statusCode).toBe(200);
    out[path] = res.headers['last-modified'] as string;
    expect(out[path]).toMatch(/GMT$/);
  }
  h.clock.advance(1000);
  return out;
}

/** The status of each list asked with If-Modified-Since alone. */
async function statusesSince(known: Record<List, string>): Promise<Record<List, number>> {
  h.clock.advance(1000);
  const out = {} as Record<List, number>;
  for (const path of LISTS) {
    const res = await h.get(ann, path, { 'if-modified-since': known[path] });
    out[path] = res.statusCode;
    if (res.statusCode === 304) expect(res.body).toBe('');
  }
  return out;
}

test('nothing changed: every list is 304', async () => {
  const known = await lastModifiedOfAll();
  expect(Object.values(await statusesSince(known))).toEqual(LISTS.map(() => 304));
});

test('marking an entry read changes the unread list only', async () => {
  const known = await lastModifiedOfAll();
  await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', [entryIds[0]]);
  expect(await statusesSince(known)).toEqual({
    '/feeds/v2/subscriptions.json': 304,
    '/feeds/v2/unread_entries.json': 200,
    '/feeds/v2/starred_entries.json': 304,
    '/feeds/v2/taggings.json': 304,
    '/feeds/v2/tags.json': 304,
    '/feeds/v2/subscriptions.xml': 304,
  });
  const again = await h.get(ann, '/feeds/v2/unread_entries.json');
  expect(Date.parse(again.headers['last-modified'] as string)).toBeGreaterThan(
    Date.parse(known['/feeds/v2/unread_entries.json']),
  );
});

test('starring changes the starred list only', async () => {
  const known = await lastModifiedOfAll();
  await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [entryIds[1]]);
  const statuses = await statusesSince(known);
  expect(statuses['/feeds/v2/starred_entries.json']).toBe(200);
  expect(statuses['/feeds/v2/subscriptions.json']).toBe(304);
  expect(statuses['/feeds/v2/unread_entries.json']).toBe(304);
  expect(statuses['/feeds/v2/taggings.json']).toBe(304);
});

test('renaming a subscription changes subscriptions (and the OPML export), not taggings', async () => {
  const known = await lastModifiedOfAll();
  await h.req(ann, 'PATCH', `/feeds/v2/subscriptions/${sub.id}.json`, { title: 'Renamed' });
  const statuses = await statusesSince(known);
  expect(statuses['/feeds/v2/subscriptions.json']).toBe(200);
  expect(statuses['/feeds/v2/subscriptions.xml']).toBe(200);
  expect(statuses['/feeds/v2/taggings.json']).toBe(304);
  expect(statuses['/feeds/v2/unread_entries.json']).toBe(304);
});

test('a new tagging changes taggings, tags and the export, not subscriptions', async () => {
  const known = await lastModifiedOfAll();
  await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: sub.feed_id, name: 'Later' });
  const statuses = await statusesSince(known);
  expect(statuses['/feeds/v2/taggings.json']).toBe(200);
  expect(statuses['/feeds/v2/tags.json']).toBe(200);
  expect(statuses['/feeds/v2/subscriptions.xml']).toBe(200);
  expect(statuses['/feeds/v2/subscriptions.json']).toBe(304);
});

test('new entries of a feed change the unread list, not subscriptions', async () => {
  const known = await lastModifiedOfAll();
  feeds.set('/ims.xml', {
    body: rssWithItems('IMS', [
      { guid: 'c', title: 'C' },
      { guid: 'a', title: 'A' },
      { guid: 'b', title: 'B' },
    ]),
    headers: { 'content-type': 'application/rss+xml' },
  });
  await h.refresh(sub.feed_id);
  const statuses = await statusesSince(known);
  expect(statuses['/feeds/v2/unread_entries.json']).toBe(200);
  expect(statuses['/feeds/v2/subscriptions.json']).toBe(304);
  expect(statuses['/feeds/v2/taggings.json']).toBe(304);
});
