// Follow actions through the feeds service: by username, by profile URL, by any URL on the user's
// site, and by the user's JSON Feed URL; the follow list, the posts in `default`, idempotent follow
// and unfollow, and evt.feeds.follow.created published by feeds once.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feeds } from '@murmur/contracts';
import { eventually } from '@murmur/testing';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;
const followEvents: { followerId: number; followeeId: number }[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.bus.subscribe(feeds.followCreated, { durable: 'test-microsub-follows' }, async (e) => {
    followEvents.push(e.data);
  });
  await h.publish({ id: 1, userId: h.bob.id, publishedAt: at(-60) });
  await h.publish({ id: 2, userId: h.cat.id, publishedAt: at(-30) });
  await h.site(h.cat, 30, 'https://cat.example/');
});

afterAll(async () => {
  await h.stop();
});

const follows = async () => ((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items;

it('follows by username: 200 {}, listed in action=follow, posts in default, announced once', async () => {
  const res = await h.post({ action: 'follow', username: 'bob' }, h.ann.token);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({});
  expect(await follows()).toEqual([
    { type: 'feed', url: `${h.publicUrl}/bob/`, name: 'Bob', photo: 'https://img.example/bob.png' },
  ]);
  expect(idsOf(await h.get({ action: 'timeline' }, h.ann.token))).toEqual(['1']);
  // Again: still 200, no second event.
  expect(
    (await h.post({ action: 'follow', username: 'bob', channel: 'default' }, h.ann.token)).statusCode,
  ).toBe(200);
  await eventually(async () => (followEvents.length === 1 ? true : undefined));
  expect(followEvents).toEqual([
    {
      followerId: 1,
      followerUsername: 'ann',
      followeeId: 2,
      followeeUsername: 'bob',
      createdAt: expect.any(String),
    },
  ]);
});

it('unfollows twice with 200 both times', async () => {
  for (let i = 0; i < 2; i++) {
    const res = await h.post({ action: 'unfollow', username: 'bob' }, h.ann.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
  }
  expect(await follows()).toEqual([]);
  expect(idsOf(await h.get({ action: 'timeline' }, h.ann.token))).toEqual([]);
});

it('follows by profile URL and by JSON Feed URL', async () => {
  expect((await h.post({ action: 'follow', url: `${h.publicUrl}/bob/` }, h.ann.token)).statusCode).toBe(200);
  expect((await follows()).map((f: any) => f.name)).toEqual(['Bob']);
  expect(
    (await h.post({ action: 'unfollow', url: `${h.publicUrl}/feeds/bob.json` }, h.ann.token)).statusCode,
  ).toBe(200);
  expect(await follows()).toEqual([]);
  expect(
    (await h.post({ action: 'follow', url: `${h.publicUrl}/feeds/bob.json` }, h.ann.token)).statusCode,
  ).toBe(200);
  expect((await follows()).map((f: any) => f.name)).toEqual(['Bob']);
});

it("follows by the user's site URL and by any URL on that site", async () => {
  const home = await eventually(async () => {
    const res = await h.post({ action: 'follow', url: 'https://cat.example/' }, h.ann.token);
    return res.statusCode === 200 ? res : undefined;
  });
  expect(home.json()).toEqual({});
  expect((await follows()).map((f: any) => f.url)).toEqual([`${h.publicUrl}/bob/`, 'https://cat.example/']);
  expect(
    (await h.post({ action: 'unfollow', url: 'https://cat.example/2026/11/24/a-post.html' }, h.ann.token))
      .statusCode,
  ).toBe(200);
  expect((await follows()).map((f: any) => f.name)).toEqual(['Bob']);
  expect(
    (await h.post({ action: 'follow', url: 'https://cat.example/about?x=1' }, h.ann.token)).statusCode,
  ).toBe(200);
  expect(idsOf(await h.get({ action: 'timeline' }, h.ann.token))).toEqual(['2', '1']);
});

it('refuses following oneself by URL too', async () => {
  const res = await h.post({ action: 'follow', url: `${h.publicUrl}/ann/` }, h.ann.token);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: 'invalid_request' });
});
