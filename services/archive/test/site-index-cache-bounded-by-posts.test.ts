// The per-process cache of read models holds at most ARCHIVE_INDEX_MAX_POSTS posts over all sites,
// dropping the least recently read site first, never the one being read; a new archive version is a
// new model.
import { expect, it } from '@jest/globals';
import { SiteIndexCache } from '../src/domain/site-index.js';
import type { ArchiveDoc, PostKey } from '../src/store/index.js';

function fakeStore(sizes: Record<number, number>) {
  const loads: number[] = [];
  return {
    loads,
    store: {
      visiblePostKeys: async (siteId: number): Promise<PostKey[]> => {
        loads.push(siteId);
        return Array.from({ length: sizes[siteId] ?? 0 }, (_, i) => ({
          _id: `${siteId}:${i}`,
          itemId: String(i),
          publishedMs: i,
          terms: `t${i % 7} common`,
        }));
      },
    },
  };
}

const archive = (siteId: number, version = 1) => ({ _id: siteId, version }) as ArchiveDoc;

it('keeps the models of the most recently read sites within the bound, never dropping the one in use', async () => {
  const { store, loads } = fakeStore({ 1: 400, 2: 400, 3: 400, 4: 5000 });
  const cache = new SiteIndexCache(1000);
  const ctx = { store } as never;
  await cache.indexOf(ctx, archive(1));
  await cache.indexOf(ctx, archive(2));
  await cache.indexOf(ctx, archive(1)); // 1 is now the most recent
  await cache.indexOf(ctx, archive(3)); // 1200 > 1000: 2 goes
  expect(cache.posts).toBe(800);
  await cache.indexOf(ctx, archive(1));
  await cache.indexOf(ctx, archive(3));
  expect(loads).toEqual([1, 2, 3]);
  await cache.indexOf(ctx, archive(2));
  expect(loads).toEqual([1, 2, 3, 2]);
  // One archive larger than the bound is still served, alone.
  const big = await cache.indexOf(ctx, archive(4));
  expect(big.size).toBe(5000);
  expect(cache.posts).toBe(5000);
  expect((await cache.indexOf(ctx, archive(4))).search(['t3', 'common'], 2)).toEqual(['4:4994', '4:4987']);
  expect(loads).toEqual([1, 2, 3, 2, 4]);
});

it('builds a new model when the archive version changes', async () => {
  const { store, loads } = fakeStore({ 1: 10 });
  const cache = new SiteIndexCache(1000);
  const ctx = { store } as never;
  await cache.indexOf(ctx, archive(1, 1));
  await cache.indexOf(ctx, archive(1, 1));
  const v2 = await cache.indexOf(ctx, archive(1, 2));
  expect(v2.version).toBe(2);
  expect(loads).toEqual([1, 1]);
  expect(cache.posts).toBe(10);
});
