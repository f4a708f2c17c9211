// The follow graph with Microsub channels (docs/api/feeds.md, "Bus"): a follow carries the channel it
// was made into (none: default). The timeline of a channel holds the posts of its follows; `default`
// the user's own posts and those of follows in no other channel; no channel at all, everyone's (the
// public timeline JSON Feed keeps everyone). A follow repeated into another channel moves there, one
// repeated without a channel stays where it is; the following list names each follow's channel;
// unfollowing a channel ends its follows. `discover` holds every public post of the service.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feeds } from '@murmur/contracts';
import { eventually, feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;
let cy: Account;
let dee: Account;

const page = async (channel: string | undefined, userId = ada.id) =>
  (
    await h.bus.request(feeds.timelineGet, {
      userId,
      kind: 'default',
      limit: 20,
      ...(channel === undefined ? {} : { channel }),
    })
  ).items.map((i) => i.id);

const following = async () =>
  Object.fromEntries(
    (await h.bus.request(feeds.followingList, { userId: ada.id })).items.map((c) => [
      c.username,
      c.channel ?? 'default',
    ]),
  );

beforeAll(async () => {
  h = await startHarness({ gateway: false });
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  cy = await h.createUser('cy');
  dee = await h.createUser('dee');
  const authors = [bob, bob, cy, cy, dee, ada];
  for (const [i, author] of authors.entries()) {
    await h.postEvent('published', {
      id: i + 1,
      userId: author.id,
      publishedAt: `2026-11-21T08:0${i}:00+00:00`,
    });
  }
  await eventually(async () =>
    (await h.store.collection('posts').countDocuments({})) === 6 ? true : undefined,
  );
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'bob' });
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'cy', channel: 'c1' });
  await h.bus.request(feeds.followCreate, { userId: ada.id, url: `${h.publicUrl}/dee/`, channel: 'c1' });
});
afterAll(() => h?.stop());

it('fills each channel with the posts of its follows, default with own posts and the rest', async () => {
  expect(await page('default')).toEqual(['6', '2', '1']);
  expect(await page('c1')).toEqual(['5', '4', '3']);
  expect(await page(undefined)).toEqual(['6', '5', '4', '3', '2', '1']);
  expect(await page('c2')).toEqual([]);
  const positions = await h.bus.request(feeds.timelinePositions, {
    userId: ada.id,
    kind: 'default',
    channel: 'c1',
    limit: 10,
  });
  expect(positions.items.map((i) => i.id)).toEqual(['5', '4', '3']);
  expect(await following()).toEqual({ bob: 'default', cy: 'c1', dee: 'c1' });
  // The public timeline is everyone ada follows.
  expect(ids(await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 6))).toEqual([
    '6',
    '5',
    '4',
    '3',
    '2',
    '1',
  ]);
});

it('moves a follow repeated into another channel, keeps one repeated without a channel, announces neither', async () => {
  const announced = h.followEvents.length;
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'cy' });
  expect(await following()).toMatchObject({ cy: 'c1' });
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'cy', channel: 'default' });
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'bob', channel: 'c2' });
  expect(await following()).toEqual({ bob: 'c2', cy: 'default', dee: 'c1' });
  expect(await page('default')).toEqual(['6', '4', '3']);
  expect(await page('c1')).toEqual(['5']);
  expect(await page('c2')).toEqual(['2', '1']);
  expect(h.followEvents.length).toBe(announced);
});

it('unfollows every follow of a channel, and no other', async () => {
  expect(await h.bus.request(feeds.channelUnfollow, { userId: ada.id, channel: 'c1' })).toEqual({
    unfollowed: 1,
  });
  expect(await following()).toEqual({ bob: 'c2', cy: 'default' });
  expect(await page('c1')).toEqual([]);
  expect(await h.bus.request(feeds.channelUnfollow, { userId: ada.id, channel: 'c1' })).toEqual({
    unfollowed: 0,
  });
});

it('answers discover with every public post of the service, newest first, in pages', async () => {
  const first = await h.bus.request(feeds.timelineGet, { userId: cy.id, kind: 'discover', limit: 4 });
  expect(first.items.map((i) => i.id)).toEqual(['6', '5', '4', '3']);
  const second = await h.bus.request(feeds.timelineGet, {
    userId: cy.id,
    kind: 'discover',
    limit: 4,
    before: first.before!,
  });
  expect(second.items.map((i) => i.id)).toEqual(['2', '1']);
  expect(second.before).toBeUndefined();
  const positions = await h.bus.request(feeds.timelinePositions, {
    userId: bob.id,
    kind: 'discover',
    limit: 10,
    since: { ms: Date.parse('2026-11-21T08:03:00Z'), id: 4 },
  });
  expect(positions.items.map((i) => i.id)).toEqual(['6', '5']);
  await expect(
    h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'discover', limit: 4, channel: 'c1' }),
  ).rejects.toMatchObject({ status: 400 });
});
