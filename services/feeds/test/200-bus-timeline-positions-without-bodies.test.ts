// feeds.timeline.positions (what the Microsub adapter counts unread items with): the ids and published
// times of a timeline's items, newest first, as feeds.timeline.get orders and dates them, without
// post bodies or authors; `since` keeps the items newer than a position, `limit` the newest of those,
// and the `before` cursor continues (in either request).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feeds } from '@murmur/contracts';
import { eventually, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;
let cyd: Account;

const ms = (text: string) => Date.parse(text);

beforeAll(async () => {
  h = await startHarness({ gateway: false });
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  cyd = await h.createUser('cyd');
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'bob' });
  // Posts 1–5 by bob a day apart; 6 and 7 by bob in the same second (ordered by id there); 8 by cyd,
  // whom ada does not follow, mentioning ada; 9 by ada herself.
  for (let i = 1; i <= 5; i++) {
    await h.postEvent('published', { id: i, userId: bob.id, publishedAt: `2026-11-2${i}T08:00:00+00:00` });
  }
  await h.postEvent('published', { id: 6, userId: bob.id, publishedAt: '2026-11-26T08:00:00+00:00' });
  await h.postEvent('published', { id: 7, userId: bob.id, publishedAt: '2026-11-26T08:00:00+00:00' });
  await h.postEvent('published', {
    id: 8,
    userId: cyd.id,
    publishedAt: '2026-11-27T08:00:00+00:00',
    mentions: [{ userId: ada.id, username: 'ada' }],
  });
  await h.postEvent('published', { id: 9, userId: ada.id, publishedAt: '2026-11-20T08:00:00+00:00' });
  // The index (positions) and the store (timeline.get's posts) are both written by the events.
  await eventually(async () => {
    const query = { userId: ada.id, kind: 'default', limit: 100 } as const;
    const positions = await h.bus.request(feeds.timelinePositions, query);
    const page = await h.bus.request(feeds.timelineGet, query);
    return positions.items.length === 8 && page.items.length === 8 ? true : undefined;
  });
});
afterAll(async () => {
  await h?.stop();
});

it('answers ids and published times in the order and form of timeline.get, and nothing else', async () => {
  const positions = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    limit: 100,
  });
  const page = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 100 });
  expect(positions.items.map((i) => i.id)).toEqual(['7', '6', '5', '4', '3', '2', '1', '9']);
  expect(positions.items).toEqual(page.items.map((i) => ({ id: i.id, publishedAt: i.publishedAt })));
  for (const item of positions.items) expect(Object.keys(item).sort()).toEqual(['id', 'publishedAt']);
  expect(positions.before).toBeUndefined();
});

it('keeps only items newer than `since`, the boundary itself excluded', async () => {
  const since = { ms: ms('2026-11-24T08:00:00+00:00'), id: 4 };
  const newer = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    since,
    limit: 100,
  });
  expect(newer.items.map((i) => i.id)).toEqual(['7', '6', '5']);
  expect(newer.before).toBeUndefined();
  // Within one second, by id: 7 is newer than 6.
  const sameSecond = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    since: { ms: ms('2026-11-26T08:00:00+00:00'), id: 6 },
    limit: 100,
  });
  expect(sameSecond.items.map((i) => i.id)).toEqual(['7']);
  const nothing = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    since: { ms: ms('2026-11-26T08:00:00+00:00'), id: 7 },
    limit: 100,
  });
  expect(nothing).toEqual({ items: [] });
});

it('answers the newest `limit` of the range and a cursor that continues it, in both requests', async () => {
  const since = { ms: ms('2026-11-21T08:00:00+00:00'), id: 1 };
  const first = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    since,
    limit: 2,
  });
  expect(first.items.map((i) => i.id)).toEqual(['7', '6']);
  expect(first.before).toBeDefined();
  const second = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    since,
    limit: 2,
    before: first.before!,
  });
  expect(second.items.map((i) => i.id)).toEqual(['5', '4']);
  const third = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    since,
    limit: 2,
    before: second.before!,
  });
  // The range ends at `since`: 3 and 2 are all that is left, and no cursor follows.
  expect(third.items.map((i) => i.id)).toEqual(['3', '2']);
  expect(third.before).toBeUndefined();
  // The cursor is timeline.get's own: the page after the positions' first two is 5, 4.
  const page = await h.bus.request(feeds.timelineGet, {
    userId: ada.id,
    kind: 'default',
    limit: 2,
    before: first.before!,
  });
  expect(page.items.map((i) => i.id)).toEqual(['5', '4']);
  // And the other way round: a timeline.get cursor continues the positions.
  const fromPage = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    limit: 3,
    before: page.before!,
  });
  expect(fromPage.items.map((i) => i.id)).toEqual(['3', '2', '1']);
});

it('answers mentions, follows unfollows and deletions, and refuses unknown users and bad cursors', async () => {
  const mentions = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'mentions',
    limit: 10,
  });
  expect(mentions.items).toEqual([{ id: '8', publishedAt: '2026-11-27T08:00:00+00:00' }]);
  // Another user's timeline is theirs: cyd follows nobody and sees only the post of their own.
  const cyds = await h.bus.request(feeds.timelinePositions, { userId: cyd.id, kind: 'default', limit: 10 });
  expect(cyds.items.map((i) => i.id)).toEqual(['8']);

  await h.postEvent('deleted', { id: 6, userId: bob.id, publishedAt: '2026-11-26T08:00:00+00:00' });
  await eventually(async () => {
    const now = await h.bus.request(feeds.timelinePositions, { userId: ada.id, kind: 'default', limit: 3 });
    return now.items.map((i) => i.id).join() === '7,5,4' ? true : undefined;
  });
  await h.bus.request(feeds.followDelete, { userId: ada.id, username: 'bob' });
  const own = await h.bus.request(feeds.timelinePositions, { userId: ada.id, kind: 'default', limit: 10 });
  expect(own.items.map((i) => i.id)).toEqual(['9']);

  await expect(
    h.bus.request(feeds.timelinePositions, { userId: 9999, kind: 'default', limit: 2 }),
  ).rejects.toMatchObject({ status: 404 });
  await expect(
    h.bus.request(feeds.timelinePositions, { userId: ada.id, kind: 'default', limit: 2, before: 'garbage!' }),
  ).rejects.toMatchObject({ status: 400 });
});
