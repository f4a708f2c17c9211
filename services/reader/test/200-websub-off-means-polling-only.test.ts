// READER_WEBSUB=false: a feed naming a hub is polled as any other; no hub is asked anything, and the
// callback knows no subscription.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { atomWithHub, startFakeHub, type FakeHub } from './fake-hub.js';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { PUBLIC_URL, startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let hub: FakeHub;
let ann: TestUser;

beforeAll(async () => {
  h = await startReader({ READER_WEBSUB: 'false' });
  feeds = await startFeedServer({ fixtures: false });
  hub = await startFakeHub(() => h.url);
  ann = h.identity.addUser('ann');
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await feeds?.close();
  await hub?.close();
});

test('a feed naming a hub is subscribed and polled without any request to the hub', async () => {
  feeds.set('/off.xml', {
    headers: { 'content-type': 'application/atom+xml' },
    body: atomWithHub(hub.url(), feeds.url('/off.xml'), [{ id: 'o1', title: 'Off' }]),
  });
  const { feed_id: feedId } = await h.subscribe(ann, feeds.url('/off.xml'));
  await h.refresh(feedId);
  await h.idle();
  expect(hub.requests).toEqual([]);
  expect(await h.ctx.store.webSubsOfFeed(feedId)).toEqual([]);
  const res = await hub.deliver(`${PUBLIC_URL}/feeds/v2/websub/${'D'.repeat(43)}`, 'x', { secret: 's' });
  expect(res.statusCode).toBe(410);
});
