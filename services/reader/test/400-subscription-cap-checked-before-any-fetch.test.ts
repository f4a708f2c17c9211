// A user at READER_SUBSCRIPTIONS_PER_USER who asks to subscribe to another URL gets a 400 naming the
// cap, and the reader fetches nothing for it: discovery does not start.
import { expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer(
  (started) => {
    ({ h, feeds, ann } = started);
  },
  { READER_SUBSCRIPTIONS_PER_USER: '1' },
);

test('at the cap: 400 naming it, and the feed server sees no request', async () => {
  await h.subscribe(ann, feeds.url('/rss2.xml'));
  feeds.set('/other.xml', {
    body: rssWithItems('Other', [{ guid: 'a', title: 'A' }]),
    headers: { 'content-type': 'application/rss+xml' },
  });
  await h.idle(); // the first subscription's icon lookup is done
  const before = feeds.requests.length;
  const res = await h.req(ann, 'POST', '/feeds/v2/subscriptions.json', { feed_url: feeds.url('/other.xml') });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({
    status: 400,
    message: 'Bad Request',
    errors: [{ feed_url: 'At most 1 subscriptions per user' }],
  });
  expect(feeds.requests.length).toBe(before);
  expect(feeds.hits('/other.xml')).toBe(0);
  // The existing subscription is still answered (302), without a fetch either.
  expect(
    (await h.req(ann, 'POST', '/feeds/v2/subscriptions.json', { feed_url: feeds.url('/rss2.xml') }))
      .statusCode,
  ).toBe(302);
  expect(feeds.requests.length).toBe(before);
  expect((await h.get(ann, '/feeds/v2/subscriptions.json')).json()).toHaveLength(1);
});
