// The bus API for the Microsub adapter and the reader: feeds.timeline.get pages with opaque cursors in
// both directions, follow.create / follow.delete / following.list by username or profile URL, and
// article.extract answering found or not.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feeds } from '@murmur/contracts';
import { AppError } from '@murmur/core';
import { eventually, startHarness, type Account, type Harness } from './harness.js';
import { ARTICLE_HTML, startPageServer, type PageServer } from './pages.js';

let h: Harness;
let ada: Account;
let bob: Account;
let pages: PageServer;

beforeAll(async () => {
  h = await startHarness({ gateway: false });
  ada = await h.createUser('ada');
  bob = await h.createUser('bob', { name: 'Bob' });
  pages = await startPageServer({
    '/a': { type: 'text/html', body: ARTICLE_HTML },
    '/img': { type: 'image/png', body: 'x' },
  });
  for (let i = 1; i <= 5; i++) {
    await h.postEvent('published', {
      id: i,
      userId: bob.id,
      publishedAt: `2026-11-2${i}T08:00:00+00:00`,
      ...(i === 3 ? { mentions: [{ userId: ada.id, username: 'ada' }] } : {}),
    });
  }
  await eventually(async () =>
    (await h.store.collection('posts').countDocuments({})) === 5 ? true : undefined,
  );
});
afterAll(async () => {
  await h?.stop();
  await pages?.close();
});

it('follows by username and by profile URL, lists and unfollows', async () => {
  const followed = await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'bob' });
  expect(followed.following).toEqual({
    userId: bob.id,
    username: 'bob',
    name: 'Bob',
    url: `${h.publicUrl}/bob/`,
    photo: expect.any(String),
  });
  const byUrl = await h.bus.request(feeds.followCreate, { userId: ada.id, url: `${h.publicUrl}/bob/` });
  expect(byUrl.following.userId).toBe(bob.id);
  expect((await h.bus.request(feeds.followingList, { userId: ada.id })).items.map((c) => c.username)).toEqual(
    ['bob'],
  );
  await expect(
    h.bus.request(feeds.followCreate, { userId: ada.id, username: 'nobody' }),
  ).rejects.toMatchObject({ status: 404 });
  await expect(h.bus.request(feeds.followCreate, { userId: ada.id, username: 'ada' })).rejects.toBeInstanceOf(
    AppError,
  );
});

it('pages a timeline with before and after cursors', async () => {
  const first = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 2 });
  expect(first.items.map((i) => i.id)).toEqual(['5', '4']);
  expect(first.items[0]).toMatchObject({
    postId: 5,
    publishedAt: '2026-11-25T08:00:00+00:00',
    author: { username: 'bob', name: 'Bob' },
  });
  const second = await h.bus.request(feeds.timelineGet, {
    userId: ada.id,
    kind: 'default',
    limit: 2,
    before: first.before!,
  });
  expect(second.items.map((i) => i.id)).toEqual(['3', '2']);
  const third = await h.bus.request(feeds.timelineGet, {
    userId: ada.id,
    kind: 'default',
    limit: 2,
    before: second.before!,
  });
  expect(third.items.map((i) => i.id)).toEqual(['1']);
  expect(third.before).toBeUndefined();
  const newer = await h.bus.request(feeds.timelineGet, {
    userId: ada.id,
    kind: 'default',
    limit: 5,
    after: second.after!,
  });
  expect(newer.items.map((i) => i.id)).toEqual(['5', '4']);
  // More newer items than the limit: the ones just after the cursor come first, none is skipped, and
  // the page's `after` leads to the next newer ones.
  const fromOldest = await h.bus.request(feeds.timelineGet, {
    userId: ada.id,
    kind: 'default',
    limit: 2,
    after: third.after!,
  });
  expect(fromOldest.items.map((i) => i.id)).toEqual(['3', '2']);
  expect(fromOldest.before).toBeDefined();
  const upward = await h.bus.request(feeds.timelineGet, {
    userId: ada.id,
    kind: 'default',
    limit: 2,
    after: fromOldest.after!,
  });
  expect(upward.items.map((i) => i.id)).toEqual(['5', '4']);
  const mentions = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'mentions', limit: 20 });
  expect(mentions.items.map((i) => i.id)).toEqual(['3']);
  await expect(
    h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 2, before: 'garbage!' }),
  ).rejects.toMatchObject({ status: 400 });
  await expect(
    h.bus.request(feeds.timelineGet, { userId: 9999, kind: 'default', limit: 2 }),
  ).rejects.toMatchObject({ status: 404 });
});

it('unfollows over the bus: the timeline keeps only own posts', async () => {
  await h.bus.request(feeds.followDelete, { userId: ada.id, username: 'bob' });
  const page = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 20 });
  expect(page.items).toEqual([]);
});

it('extracts an article for the reader, or says why not', async () => {
  const found = await h.bus.request(feeds.articleExtract, { url: `${pages.url}/a` }, { timeoutMs: 10_000 });
  expect(found).toMatchObject({
    found: true,
    url: `${pages.url}/a`,
    title: expect.stringMatching(/^Engines/),
  });
  if (found.found) expect(found.contentHtml).not.toContain('<script');
  expect(await h.bus.request(feeds.articleExtract, { url: `${pages.url}/img` })).toEqual({
    found: false,
    reason: 'no readable article on the page',
  });
  expect(await h.bus.request(feeds.articleExtract, { url: `${pages.url}/missing` })).toEqual({
    found: false,
    reason: 'the page answered 404',
  });
});
