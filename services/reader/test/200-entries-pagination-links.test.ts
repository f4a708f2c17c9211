// Pagination headers of entry lists (docs/api/reader.md "Pagination headers"): identical Links and Link, absolute
// URLs from the configured base URL, exact separators, no raw commas, every parameter kept.
import { describe, expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { PUBLIC_URL, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let feedId: number;

/** `{rel: url}` of a Links value, parsed the way NetNewsWire does: split on `, ` then on `; `. */
function rels(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(', ')) {
    const [url, rel] = part.split('; ');
    expect(url).toMatch(/^<[^<>]+>$/);
    expect(rel).toMatch(/^rel="(first|prev|next|last)"$/);
    out[rel!.slice(5, -1)] = url!.slice(1, -1);
  }
  return out;
}

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  const items = Array.from({ length: 12 }, (_, i) => ({ guid: `p${i}`, title: `Post ${i}` }));
  feeds.set('/twelve.xml', { body: rssWithItems('Twelve', items) });
  feedId = (await h.subscribe(ann, feeds.url('/twelve.xml'))).feed_id;
});

describe('Links and Link', () => {
  test('page 1 of 3: identical headers, next and last only, absolute URLs from PUBLIC_URL', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?per_page=5&x=a,b', {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(res.headers.links).toBe(res.headers.link);
    expect(res.headers['x-feedbin-record-count']).toBe('12');
    const links = rels(res.headers.links as string);
    expect(Object.keys(links)).toEqual(['next', 'last']);
    expect(links.next).toBe(`${PUBLIC_URL}/feeds/v2/entries.json?per_page=5&x=a%2Cb&page=2`);
    expect(links.last).toBe(`${PUBLIC_URL}/feeds/v2/entries.json?per_page=5&x=a%2Cb&page=3`);
    expect(res.headers.links).not.toContain('evil');
  });

  test('middle and last pages: first/prev everywhere after page 1, no next on the last', async () => {
    const middle = rels(
      (await h.get(ann, '/feeds/v2/entries.json?per_page=5&page=2')).headers.links as string,
    );
    expect(Object.keys(middle)).toEqual(['first', 'prev', 'next', 'last']);
    expect(middle.prev).toBe(`${PUBLIC_URL}/feeds/v2/entries.json?per_page=5&page=1`);
    const last = await h.get(ann, '/feeds/v2/entries.json?per_page=5&page=3');
    expect(last.json()).toHaveLength(2);
    expect(Object.keys(rels(last.headers.link as string))).toEqual(['first', 'prev']);
  });

  test('one page only: no link headers', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?per_page=12');
    expect(res.headers.link).toBeUndefined();
    expect(res.headers.links).toBeUndefined();
  });

  test('following next to the end keeps mode and include_enclosure and visits every entry once', async () => {
    let url: string | undefined = '/feeds/v2/entries.json?mode=extended&include_enclosure=true&per_page=5';
    const seen: number[] = [];
    while (url) {
      const res = await h.get(ann, url);
      expect(res.statusCode).toBe(200);
      for (const e of res.json()) {
        expect(e).toHaveProperty('extracted_articles');
        seen.push(e.id);
      }
      const next: string | undefined = res.headers.links ? rels(res.headers.links as string).next : undefined;
      if (next) {
        expect(next).toContain('mode=extended');
        expect(next).toContain('include_enclosure=true');
      }
      url = next?.slice(PUBLIC_URL.length);
    }
    expect(new Set(seen).size).toBe(12);
  });

  test('since is re-written in the six-digit form', async () => {
    const res = await h.get(ann, '/feeds/v2/entries.json?per_page=5&since=2026-01-01');
    expect(rels(res.headers.links as string).next).toBe(
      `${PUBLIC_URL}/feeds/v2/entries.json?per_page=5&since=2026-01-01T00%3A00%3A00.000000Z&page=2`,
    );
  });

  test('per-feed lists page the same way', async () => {
    const res = await h.get(ann, `/feeds/v2/feeds/${feedId}/entries.json?per_page=10`);
    expect(res.json()).toHaveLength(10);
    expect(rels(res.headers.links as string).next).toBe(
      `${PUBLIC_URL}/feeds/v2/feeds/${feedId}/entries.json?per_page=10&page=2`,
    );
    expect((await h.get(ann, `/feeds/v2/feeds/${feedId}/entries.json?per_page=10&page=3`)).statusCode).toBe(
      404,
    );
  });
});
