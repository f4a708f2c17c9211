// recent.json: 25 posts a page, newest first (date, then id, descending); `next_url` while more
// remain and none on the last page; a client following `next_url` and one adding 25 to `offset`
// until `items` is empty both see every post exactly once and stop.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed, type FeedItem } from './fixtures.js';
import { ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
const TOTAL = 61;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  // Two posts share a date: the higher id comes first.
  const posts: FeedItem[] = [
    ...dailyPosts(TOTAL - 1),
    { id: 'p59b', content_html: '<p>twin</p>', date_published: dailyPosts(60)[59]!.date_published! },
  ];
  await h.importFile(ada, jsonFeed(posts), 'application/json');
});
afterAll(() => h?.stop());

const base = () => `/imported/archive/${ada.siteId}/recent.json`;

it('pages 25 at a time with no overlap, newest first, next_url until the last page', async () => {
  const first = await h.feed(base());
  expect(ids(first).slice(0, 3)).toEqual(['p59b', 'p59', 'p58']);
  expect(first.next_url).toBe(`${h.url}${base()}?offset=25`);
  const second = await h.feed(`${base()}?offset=25`);
  expect(second.items).toHaveLength(25);
  expect(ids(second)[0]).toBe('p35');
  expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([]);
  expect(second.feed_url).toBe(`${h.url}${base()}?offset=25`);
  expect(second.next_url).toBe(`${h.url}${base()}?offset=50`);
  const last = await h.feed(`${base()}?offset=50`);
  expect(last.items).toHaveLength(11);
  expect(last.next_url).toBeUndefined();
});

it('a client following next_url sees every post once and stops', async () => {
  const seen: string[] = [];
  let path: string | undefined = base();
  let pages = 0;
  while (path && pages++ < 10) {
    const page = await h.feed(path);
    seen.push(...ids(page));
    path = page.next_url ? new URL(page.next_url).pathname + new URL(page.next_url).search : undefined;
  }
  expect(seen).toHaveLength(TOTAL);
  expect(new Set(seen).size).toBe(TOTAL);
});

it('a client adding 25 to offset until items is empty sees every post once', async () => {
  const seen: string[] = [];
  for (let offset = 0; offset < 1000; offset += 25) {
    const page = await h.feed(`${base()}?offset=${offset}`);
    if (page.items.length === 0) {
      expect(page.next_url).toBeUndefined();
      break;
    }
    seen.push(...ids(page));
  }
  expect(seen).toHaveLength(TOTAL);
  expect(new Set(seen).size).toBe(TOTAL);
});

it('an offset past the end is 200 with no items and no next_url', async () => {
  const past = await h.feed(`${base()}?offset=5000`);
  expect(past.items).toEqual([]);
  expect(past.next_url).toBeUndefined();
  const huge = await h.feed(`${base()}?offset=99999999999999999999`);
  expect(huge.items).toEqual([]);
});
