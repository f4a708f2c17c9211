// Following an account of another server through the follow API: feeds asks the federation service
// (here a stand-in answering federation.account.resolve) who `alice@remote.example` is, keeps the edge
// and announces it; the account's public posts (federation's events) then show in the follower's
// timeline with the author's card, never in the service-wide photos; an unfollow announces
// evt.feeds.follow.deleted. A handle nobody knows is a 404.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { federation, feeds, type EventEnvelope } from '@murmur/contracts';
import { notFound } from '@murmur/core';
import { eventually } from '@murmur/testing';
import { feedWhen, startHarness, type Account, type Harness } from './harness.js';

const ALICE: federation.RemoteAccount = {
  id: federation.REMOTE_ID_BASE + 1,
  handle: 'alice@remote.example',
  name: 'Alice',
  url: 'https://remote.example/@alice',
  photo: 'https://remote.example/alice.png',
  actorId: 'https://remote.example/users/alice',
};

let h: Harness;
let ada: Account;
const unfollows: EventEnvelope<unknown>[] = [];

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada' });
  await h.bus.handle(federation.accountResolve, async ({ target }) => {
    if (target.replace(/^@/, '') === 'alice@remote.example' || target === ALICE.actorId)
      return { account: ALICE };
    throw notFound('No such account.');
  });
  await h.bus.subscribe(feeds.followDeleted, { durable: 'test-unfollows' }, async (e) => {
    unfollows.push(e);
  });
});
afterAll(() => h?.stop());

test('follow @alice@remote.example → 200 and the edge is announced with her id', async () => {
  const res = await h.request('POST', '/users/follow', {
    token: ada.token,
    body: { username: '@alice@remote.example' },
  });
  expect(res.statusCode).toBe(200);
  const event = await eventually(async () => h.followEvents.find((e) => e.data.followeeId === ALICE.id));
  expect(event.data).toMatchObject({ followerId: ada.id, followeeUsername: 'alice@remote.example' });
  const following = await h.request('GET', '/users/following/ada', { token: ada.token });
  expect(following.json()).toEqual([
    expect.objectContaining({
      username: 'alice@remote.example',
      name: 'Alice',
      url: ALICE.url,
      avatar: ALICE.photo,
    }),
  ]);
});

test('her posts are in Ada’s timeline with her card, and not in the photos feed', async () => {
  await h.bus.publish(federation.postReceived, {
    id: federation.REMOTE_ID_BASE + 7,
    author: ALICE,
    objectId: 'https://remote.example/users/alice/statuses/7',
    url: 'https://remote.example/@alice/7',
    title: '',
    contentHtml: '<p>Hello from afar</p>',
    contentText: 'Hello from afar',
    publishedAt: '2026-11-21T09:00:00+00:00',
    photos: ['https://remote.example/media/1.png'],
    mentions: [],
    inReplyTo: null,
    revision: 1,
  });
  const feed = await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 1);
  expect(feed.items[0]).toMatchObject({
    url: 'https://remote.example/@alice/7',
    content_html: '<p>Hello from afar</p>',
    author: { name: 'Alice', url: ALICE.url, avatar: ALICE.photo },
    _service: { username: 'alice@remote.example' },
  });
  const photos = await h.feed('/feeds/photos.json');
  expect(photos.items).toEqual([]);
});

test('unfollow → 200 and evt.feeds.follow.deleted; her posts leave the timeline', async () => {
  const res = await h.request('POST', '/users/unfollow', {
    token: ada.token,
    body: { username: 'alice@remote.example' },
  });
  expect(res.statusCode).toBe(200);
  await eventually(async () =>
    unfollows.find((e) => (e.data as { followeeId: number }).followeeId === ALICE.id),
  );
  await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 0);
});

test('a handle nobody answers for → 404', async () => {
  const res = await h.request('POST', '/users/follow', {
    token: ada.token,
    body: { username: 'nobody@remote.example' },
  });
  expect(res.statusCode).toBe(404);
});

test('Microsub’s follow by URL (feeds.follow.create) follows the account an actor URL names', async () => {
  const { following } = await h.bus.request(feeds.followCreate, { userId: ada.id, url: ALICE.actorId });
  expect(following).toMatchObject({ userId: ALICE.id, username: 'alice@remote.example', url: ALICE.url });
  await expect(
    h.bus.request(feeds.followCreate, { userId: ada.id, url: 'https://remote.example/not-an-actor' }),
  ).rejects.toMatchObject({ status: 404 });
});
