// Retention: unstarred entries older than READER_RETENTION_DAYS are deleted (from lists, the unread
// set and the store); starred ones stay, and so do highlights.
import { expect, test } from '@jest/globals';
import { enqueueRetention } from '../src/jobs/scheduler.js';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer(
  (started) => {
    ({ h, feeds, ann } = started);
  },
  { READER_RETENTION_DAYS: '30' },
);

test('old unstarred entries go; starred and recent ones stay; unread and highlights follow', async () => {
  feeds.set('/old.xml', {
    body: rssWithItems('Old', [
      { guid: 'o1', title: 'Old one' },
      { guid: 'o2', title: 'Old two' },
    ]),
  });
  const sub = await h.subscribe(ann, feeds.url('/old.xml'));
  const [keep, drop] = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`))
    .json()
    .map((e: { id: number }) => e.id);
  await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [keep]);
  await h.req(ann, 'POST', `/feeds/${drop}/highlights`, { text: 'remember this' });

  h.clock.advance(31 * 24 * 60 * 60_000);
  feeds.set('/old.xml', {
    body: rssWithItems('Old', [
      { guid: 'n1', title: 'New one' },
      { guid: 'o1', title: 'Old one' },
      { guid: 'o2', title: 'Old two' },
    ]),
  });
  await h.refresh(sub.feed_id);

  const titles = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`))
    .json()
    .map((e: { title: string }) => e.title);
  expect(titles).toEqual(['New one', 'Old one']);
  expect((await h.get(ann, `/feeds/v2/entries/${drop}.json`)).statusCode).toBe(404);
  expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).not.toContain(drop);
  expect(await h.store.collection('entries').findOne({ _id: drop })).toBeNull();
  expect((await h.get(ann, '/feeds/highlights')).json().items[0].content_text).toBe('remember this');
});

test('feeds nobody subscribes to are pruned by the daily retention run', async () => {
  feeds.set('/idle.xml', { body: rssWithItems('Idle', [{ guid: 'i1', title: 'Idle one' }]) });
  const sub = await h.subscribe(ann, feeds.url('/idle.xml'));
  await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${sub.id}.json`);
  expect(await h.store.collection('entries').countDocuments({ feedId: sub.feed_id })).toBe(1);
  h.clock.advance(31 * 24 * 60 * 60_000);
  await enqueueRetention(h.ctx);
  await h.idle();
  expect(await h.store.collection('entries').countDocuments({ feedId: sub.feed_id })).toBe(0);
});
