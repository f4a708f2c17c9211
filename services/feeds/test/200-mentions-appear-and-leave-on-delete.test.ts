// A post mentioning @ada appears in ada/mentions.json (her own only when she mentions herself) and
// leaves it when deleted; a redelivered event does not duplicate an item; an edit replaces the copy.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob', { name: 'Bob' });
});
afterAll(() => h?.stop());

const atAda = () => [{ userId: ada.id, username: 'ada' }];

it('lists posts mentioning the user, newest first, with the timeline item shape', async () => {
  await h.postEvent('published', {
    id: 10,
    userId: bob.id,
    contentHtml: '<p>Hello <a href="x">@ada</a></p>',
    contentText: 'Hello @ada',
    mentions: atAda(),
    publishedAt: '2026-11-21T08:30:00+00:00',
  });
  await h.postEvent('published', { id: 11, userId: bob.id, publishedAt: '2026-11-21T09:00:00+00:00' });
  await h.postEvent('published', { id: 12, userId: ada.id, publishedAt: '2026-11-21T09:30:00+00:00' });
  await h.postEvent('published', {
    id: 13,
    userId: ada.id,
    mentions: atAda(),
    publishedAt: '2026-11-21T10:00:00+00:00',
  });
  const feed = await feedWhen(h, '/feeds/ada/mentions.json', (f) => f.items.length === 2);
  expect(ids(feed)).toEqual(['13', '10']);
  expect(feed.title).toBe('ada mentions');
  expect(feed.items[1]).toMatchObject({
    id: '10',
    content_html: '<p>Hello <a href="x">@ada</a></p>',
    content_text: 'Hello @ada',
    date_published: '2026-11-21T08:30:00+00:00',
    author: { name: 'Bob' },
    _service: { username: 'bob' },
  });
  expect((await h.feed('/feeds/bob/mentions.json')).items).toEqual([]);
});

it('does not duplicate an item when the same event arrives twice, and applies an edit', async () => {
  const post = { id: 10, userId: bob.id, mentions: atAda(), publishedAt: '2026-11-21T08:30:00+00:00' };
  await h.postEvent('published', post);
  await h.postEvent('updated', { ...post, contentHtml: '<p>edited @ada</p>', contentText: 'edited @ada' });
  const feed = await feedWhen(
    h,
    '/feeds/ada/mentions.json',
    (f) => f.items[1]?.content_text === 'edited @ada',
  );
  expect(ids(feed)).toEqual(['13', '10']);
  expect(await h.store.collection('posts').countDocuments({ _id: 10 })).toBe(1);
});

it('drops a deleted post from mentions and from every timeline', async () => {
  await h.postEvent('deleted', {
    id: 10,
    userId: bob.id,
    mentions: atAda(),
    publishedAt: '2026-11-21T08:30:00+00:00',
  });
  const feed = await feedWhen(h, '/feeds/ada/mentions.json', (f) => f.items.length === 1);
  expect(ids(feed)).toEqual(['13']);
  expect(ids(await h.feed('/feeds/bob.json'))).toEqual(['11']);
});
