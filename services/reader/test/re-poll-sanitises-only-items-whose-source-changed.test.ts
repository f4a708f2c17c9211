// A re-poll's work, counted (issue 38): sanitising and summarising an item's HTML is most of a poll's
// CPU after parsing, and a feed lists the same items poll after poll. An item whose source (what the
// parser read: title, link, author, HTML, date, enclosure, JSON Feed fields) is what the stored entry
// was made from is not derived again; a changed or new one is, and is stored as before.
import { describe, expect, test } from '@jest/globals';
import { storeEntries } from '../src/domain/ingest.js';
import { itemSourcesOf } from '../src/feeds/entries.js';
import type { ParsedItem } from '../src/feeds/types.js';
import { startReader, type Harness } from './harness.js';

const FEED_URL = 'https://derive.example/feed.xml';

const item = (k: number, body = `<p>Post ${k} body.</p>`): ParsedItem => ({
  guid: `p${k}`,
  link: `https://derive.example/${k}`,
  title: `Post ${k}`,
  author: 'Ann',
  contentHtml: body,
  published: new Date(Date.UTC(2026, 10, k)),
  enclosure: null,
  jsonFeed: null,
});

/** Counts the items the reader derives (sends to `ctx.parsing.derive`, its parser thread). */
function countDerived(h: Harness): () => number {
  let derived = 0;
  const real = h.ctx.parsing;
  h.ctx.parsing = {
    parse: real.parse,
    close: () => real.close(),
    derive: (sources) => {
      derived += sources.length;
      return real.derive(sources);
    },
  };
  return () => derived;
}

describe('storing a fetch', () => {
  test('only new items and items whose source changed are sanitised again', async () => {
    const h = await startReader();
    try {
      const feedId = 77;
      const derived = countDerived(h);
      const first = itemSourcesOf(
        [5, 4, 3, 2, 1].map((k) => item(k)),
        FEED_URL,
      );
      expect((await storeEntries(h.ctx, feedId, first)).added).toHaveLength(5);
      expect(derived()).toBe(5);

      // Two new items, post 3's HTML edited, posts 1, 2, 4 and 5 as they were.
      const second = itemSourcesOf(
        [7, 6, 5, 4, 3, 2, 1].map((k) => (k === 3 ? item(3, '<p>Post 3, <b>edited</b>.</p>') : item(k))),
        FEED_URL,
      );
      const result = await storeEntries(h.ctx, feedId, second);
      expect(result.added).toHaveLength(2);
      expect(result.updated).toBe(1);
      expect(derived()).toBe(5 + 3);

      const stored = await h.ctx.store.entriesOfFeedByKeys(feedId, ['g:p3', 'g:p7']);
      const byKey = new Map(stored.map((e) => [e.key, e]));
      expect(byKey.get('g:p3')?.content).toBe('<p>Post 3, <b>edited</b>.</p>');
      expect(byKey.get('g:p7')?.summary).toBe('Post 7 body.');

      // The same document again: nothing to derive, nothing written.
      const third = itemSourcesOf(
        [7, 6, 5, 4, 3, 2, 1].map((k) => (k === 3 ? item(3, '<p>Post 3, <b>edited</b>.</p>') : item(k))),
        FEED_URL,
      );
      expect(await storeEntries(h.ctx, feedId, third)).toEqual({ added: [], updated: 0 });
      expect(derived()).toBe(5 + 3);
    } finally {
      await h.stop();
    }
  });
});
