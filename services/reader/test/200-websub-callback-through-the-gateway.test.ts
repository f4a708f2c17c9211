// The WebSub callback as hubs reach it: through the gateway (its generated route table: no
// credentials, any media type, the 4 MiB limit checked before the body reaches the reader). A hub
// verifies intent and delivers an RSS document there, and the pushed item is unread; an oversized
// delivery is 413 and an unknown callback 410.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startTestGateway, type TestGateway } from '@murmur/gateway/testing';
import { testLogger } from '@murmur/testing';
import { startFakeHub, type FakeHub } from './fake-hub.js';
import { rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { PUBLIC_URL, startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let gateway: TestGateway;
let feeds: FeedServer;
let hub: FakeHub;
let ann: TestUser;
let feedId: number;
let callback: string;

const rss = (hubUrl: string, self: string, items: Array<{ guid: string; title: string }>) =>
  rssWithItems('Through', items).replace(
    '<channel>',
    `<channel><atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="hub" href="${hubUrl}"/>` +
      `<atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="self" href="${self}"/>`,
  );

beforeAll(async () => {
  h = await startReader();
  gateway = await startTestGateway({
    targets: { reader: h.url },
    logger: testLogger(),
    publicUrl: PUBLIC_URL,
    env: { LOG_LEVEL: 'silent' },
  });
  feeds = await startFeedServer({ fixtures: false });
  hub = await startFakeHub(() => gateway.url);
  ann = h.identity.addUser('ann');
  feeds.set('/through.rss', () => ({
    headers: { 'content-type': 'application/rss+xml' },
    body: rss(hub.url(), feeds.url('/through.rss'), [{ guid: 't1', title: 'One' }]),
  }));
  feedId = (await h.subscribe(ann, feeds.url('/through.rss'))).feed_id;
  await h.idle();
  await hub.settled();
  callback = hub.requestsOf('subscribe')[0]!.params.get('hub.callback')!;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await h?.stop();
  await feeds?.close();
  await hub?.close();
});

test('the hub’s intent verification through the gateway gets the challenge back', () => {
  expect(hub.verifications).toEqual([{ mode: 'subscribe', status: 200, body: expect.any(String) }]);
  expect(hub.subscriptions.get(callback)?.verified).toBe(true);
});

test('a signed RSS delivery through the gateway is 204 and its new item is unread', async () => {
  const body = rss(hub.url(), feeds.url('/through.rss'), [
    { guid: 't2', title: 'Two' },
    { guid: 't1', title: 'One' },
  ]);
  const res = await hub.deliver(callback, body, { contentType: 'application/rss+xml; charset=utf-8' });
  expect(res.statusCode).toBe(204);
  const entries = (await h.get(ann, `/feeds/v2/feeds/${feedId}/entries.json`)).json() as Array<{
    id: number;
    title: string;
  }>;
  expect(entries.map((e) => e.title)).toEqual(['Two', 'One']);
  expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).toContain(entries[0]!.id);
});

test('a delivery over 4 MiB is 413 at the gateway and stores nothing', async () => {
  const huge = rss(hub.url(), feeds.url('/through.rss'), [
    { guid: 'big', title: 'x'.repeat(4 * 1024 * 1024) },
  ]);
  const res = await hub.deliver(callback, huge, { contentType: 'application/rss+xml' });
  expect(res.statusCode).toBe(413);
  const entries = (await h.get(ann, `/feeds/v2/feeds/${feedId}/entries.json`)).json() as unknown[];
  expect(entries).toHaveLength(2);
});

test('a delivery to an unknown callback through the gateway is 410', async () => {
  const res = await hub.deliver(`${PUBLIC_URL}/feeds/v2/websub/${'C'.repeat(43)}`, 'x', { secret: 's' });
  expect(res.statusCode).toBe(410);
});
