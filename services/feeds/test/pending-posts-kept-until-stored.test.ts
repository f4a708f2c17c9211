// The documents the listener keeps for posts the store may not hold yet (src/domain/pending-posts.ts):
// the newest revision wins, the stored copy replaces them once it is as new, and they do not outlive a
// minute.
import { expect, it } from '@jest/globals';
import { PendingPosts } from '../src/domain/pending-posts.js';
import type { PostDoc } from '../src/store/index.js';

const doc = (id: number, rev: number, title = `t${rev}`, visible = true): PostDoc => ({
  _id: id,
  userId: 1,
  siteId: 1,
  url: `https://a.example/${id}`,
  title,
  contentHtml: '',
  contentText: '',
  publishedAt: new Date(0),
  photos: [],
  mentionIds: [],
  categories: [],
  visible,
  rev,
});

it('answers the newest revision it has until the store has one as new', () => {
  const pending = new PendingPosts();
  pending.remember(doc(1, 2, 'edited'));
  pending.remember(doc(1, 1, 'first'));
  expect(pending.resolve(1, undefined)?.title).toBe('edited');
  expect(pending.resolve(1, doc(1, 1, 'stored first'))?.title).toBe('edited');
  expect(pending.resolve(1, doc(1, 2, 'stored edited'))?.title).toBe('stored edited');
  expect(pending.size).toBe(0);
  expect(pending.resolve(1, undefined)).toBeUndefined();
});

it('forgets a document once the store holds it, and never shows a deleted one', () => {
  const pending = new PendingPosts();
  pending.remember(doc(1, 1));
  pending.stored(doc(1, 1));
  expect(pending.size).toBe(0);
  pending.remember(doc(2, 3, 'gone', false));
  expect(pending.resolve(2, undefined)).toBeUndefined();
});

it('drops what is older than a minute', () => {
  let now = 0;
  const pending = new PendingPosts(() => now);
  pending.remember(doc(1, 1));
  now = 61_000;
  pending.remember(doc(2, 1));
  expect(pending.resolve(1, undefined)).toBeUndefined();
  expect(pending.resolve(2, undefined)?._id).toBe(2);
});
