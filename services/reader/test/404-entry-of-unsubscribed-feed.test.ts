// Visibility: entries of subscribed feeds plus starred entries. Unsubscribing hides the feed's
// entries (404 for a direct read, dropped from ids=) except those the user starred.
import { expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

test('after unsubscribing: 404 for the entry, dropped from ids=, feed list 404, unread gone; starred stays', async () => {
  const sub = await h.subscribe(ann, feeds.url('/rss2.xml'));
  await h.subscribe(ann, feeds.url('/atom.xml'));
  const entries = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json();
  const [kept, gone] = entries.map((e: { id: number }) => e.id) as [number, number];
  await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [kept]);
  expect((await h.get(ann, `/feeds/v2/entries/${gone}.json`)).statusCode).toBe(200);

  expect((await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${sub.id}.json`)).statusCode).toBe(204);

  const direct = await h.get(ann, `/feeds/v2/entries/${gone}.json`);
  expect(direct.statusCode).toBe(404);
  expect(direct.json()).toEqual({ status: 404, message: 'Not Found', errors: [] });
  expect((await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).statusCode).toBe(404);
  const byIds = (await h.get(ann, `/feeds/v2/entries.json?ids=${gone},${kept}`)).json();
  expect(byIds.map((e: { id: number }) => e.id)).toEqual([kept]);
  expect((await h.get(ann, `/feeds/v2/entries/${kept}.json`)).statusCode).toBe(200);

  const unread: number[] = (await h.get(ann, '/feeds/v2/unread_entries.json')).json();
  for (const e of entries) expect(unread).not.toContain(e.id);
  const listed = (await h.get(ann, '/feeds/v2/entries.json')).json().map((e: { id: number }) => e.id);
  expect(listed).toContain(kept);
  expect(listed).not.toContain(gone);

  // Marking the starred one unread works; unstarring it makes it invisible (and not unread) again.
  expect((await h.req(ann, 'POST', '/feeds/v2/unread_entries.json', [kept, gone])).json()).toEqual([kept]);
  await h.req(ann, 'DELETE', '/feeds/v2/starred_entries.json', [kept]);
  expect((await h.get(ann, `/feeds/v2/entries/${kept}.json`)).statusCode).toBe(404);
  expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).not.toContain(kept);
});

test('an entry of a feed never subscribed cannot be starred into visibility', async () => {
  const bob = h.identity.addUser('bob');
  const bobSub = await h.subscribe(bob, feeds.url('/feed11.json'));
  const bobsEntry = (await h.get(bob, `/feeds/v2/feeds/${bobSub.feed_id}/entries.json`)).json()[0].id;
  expect((await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [bobsEntry])).json()).toEqual([]);
  expect((await h.get(ann, `/feeds/v2/entries/${bobsEntry}.json`)).statusCode).toBe(404);
});
