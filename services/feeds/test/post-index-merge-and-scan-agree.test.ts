// The post index answers a timeline by merging per-author lists (few authors) or by scanning all posts
// (many authors); both must give the same pages, newest first, in both cursor directions.
import { expect, it } from '@jest/globals';
import { PostIndex, type PostHead } from '../src/domain/post-index.js';

function head(id: number, authorId: number, ms: number): PostHead {
  return { id, authorId, publishedAtMs: ms, rev: 1, visible: true, mentionIds: [], hasPhotos: false };
}

it('gives the same newest-first pages for sparse and dense author sets', () => {
  const index = new PostIndex();
  const all: PostHead[] = [];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  for (let id = 1; id <= 5000; id++) {
    const h = head(id, 1 + random(200), random(1000) * 1000);
    all.push(h);
    index.apply(h);
  }
  const expected = (authors: Set<number>, limit: number, before?: { ms: number; id: number }) =>
    all
      .filter((h) => authors.has(h.authorId))
      .filter(
        (h) => !before || h.publishedAtMs < before.ms || (h.publishedAtMs === before.ms && h.id < before.id),
      )
      .sort((a, b) => b.publishedAtMs - a.publishedAtMs || b.id - a.id)
      .slice(0, limit)
      .map((h) => h.id);
  // Loaded in one go (as at start), the index answers the same.
  const loaded = new PostIndex();
  loaded.load(all);
  for (const size of [1, 5, 40, 150, 200]) {
    const authors = new Set(Array.from({ length: size }, (_, i) => i + 1));
    const page = index.timeline(authors, 20);
    expect(loaded.timeline(authors, 20)).toEqual(page);
    expect(page.map((h) => h.id)).toEqual(expected(authors, 20));
    const last = page[page.length - 1]!;
    const before = { ms: last.publishedAtMs, id: last.id };
    const next = index.timeline(authors, 20, { before });
    expect(next.map((h) => h.id)).toEqual(expected(authors, 20, before));
    // Paging back up from the second page gives the first page again.
    const up = index.timeline(authors, 20, { after: { ms: next[0]!.publishedAtMs, id: next[0]!.id } });
    expect(up.map((h) => h.id)).toEqual(page.map((h) => h.id));
  }
});
