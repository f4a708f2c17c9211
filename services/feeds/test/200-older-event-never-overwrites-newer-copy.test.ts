// Post events are applied by revision (the event's time, then its kind): a redelivered or late older
// event never overwrites a newer copy, in the store or in the index; a deletion is a tombstone that an
// older publication cannot undo.
import { expect, it } from '@jest/globals';
import type { publishing } from '@murmur/contracts';
import { type EventEnvelope } from '@murmur/contracts';
import { openStore } from '@murmur/runtime';
import { applyPostEvent } from '../src/domain/copies.js';
import type { FeedsContext } from '../src/domain/context.js';
import { PendingPosts } from '../src/domain/pending-posts.js';
import { PostIndex } from '../src/domain/post-index.js';
import { FeedsStore } from '../src/store/index.js';

function envelope(occurredAt: string, title: string): EventEnvelope<publishing.PublicPost> {
  return {
    id: `${occurredAt}-${title}`,
    type: 'publishing.post.x',
    producer: 'publishing',
    occurredAt,
    data: {
      id: 5,
      userId: 1,
      siteId: 1,
      url: 'https://a.example/5',
      title,
      contentHtml: `<p>${title}</p>`,
      contentText: title,
      publishedAt: '2026-11-21T08:00:00+00:00',
      photos: [],
      mentions: [],
      categories: [],
    },
  };
}

it('keeps the newest revision whatever order the events arrive in', async () => {
  const store = await openStore('memory:', { service: 'feeds' });
  const feedsStore = new FeedsStore(store);
  await feedsStore.createIndexes();
  const ctx = {
    store: feedsStore,
    index: new PostIndex(),
    pending: new PendingPosts(),
  } as unknown as FeedsContext;
  const title = async () => (await feedsStore.postById(5))?.title;

  await applyPostEvent(ctx, 'updated', envelope('2026-11-21T08:00:02.000Z', 'edited'));
  await applyPostEvent(ctx, 'published', envelope('2026-11-21T08:00:01.000Z', 'first'));
  expect(await title()).toBe('edited');
  expect(ctx.index.timeline([1], 10).map((h) => h.id)).toEqual([5]);

  await applyPostEvent(ctx, 'deleted', envelope('2026-11-21T08:00:03.000Z', 'edited'));
  await applyPostEvent(ctx, 'updated', envelope('2026-11-21T08:00:02.000Z', 'edited'));
  expect((await feedsStore.postById(5))?.visible).toBe(false);
  expect(ctx.index.timeline([1], 10)).toEqual([]);

  // Same millisecond: the deletion still wins over a publication.
  await applyPostEvent(ctx, 'published', envelope('2026-11-21T08:00:03.000Z', 'again'));
  expect(ctx.index.timeline([1], 10)).toEqual([]);

  // A later publication (back from draft) brings it back.
  await applyPostEvent(ctx, 'published', envelope('2026-11-21T08:00:04.000Z', 'back'));
  expect(await title()).toBe('back');
  expect(ctx.index.timeline([1], 10).map((h) => h.id)).toEqual([5]);
  expect(await store.collection('posts').countDocuments({})).toBe(1);
  await store.close();
});
