// search.json: terms folded for case and accents (`Café` finds `cafe`), every term must match (in
// title, text or tags), whole terms only, newest first, at most 100; no match → 200 with no items.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jsonFeed, type FeedItem } from './fixtures.js';
import { ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  const items: FeedItem[] = [
    { id: 'both', content_text: 'Breakfast at a cafe in paris.', date_published: '2019-01-01T00:00:00Z' },
    { id: 'paris-only', content_text: 'Rain in Paris.', date_published: '2019-02-01T00:00:00Z' },
    {
      id: 'title',
      title: 'CAFÉ culture',
      content_html: '<p>Notes from PARIS</p>',
      date_published: '2018-03-01T00:00:00Z',
    },
    {
      id: 'tagged',
      content_text: 'A day out.',
      tags: ['Café', 'Paris'],
      date_published: '2020-04-01T00:00:00Z',
    },
    { id: 'partial', content_text: 'Cafeteria in Parisian style.', date_published: '2021-01-01T00:00:00Z' },
    { id: 'naïve', content_text: 'Ｆｕｌｌｗｉｄｔｈ naïve résumé', date_published: '2017-01-01T00:00:00Z' },
    ...Array.from({ length: 130 }, (_, i) => ({
      id: `many-${String(i).padStart(3, '0')}`,
      content_text: `common word number ${i}`,
      date_published: new Date(Date.UTC(2010, 0, 1) + i * 3_600_000).toISOString(),
    })),
  ];
  await h.importFile(ada, jsonFeed(items), 'application/json');
});
afterAll(() => h?.stop());

const search = (q: string) =>
  h.feed(`/imported/archive/${ada.siteId}/search.json?q=${encodeURIComponent(q)}`);

it('q=Café Paris matches posts having both terms, in any field, newest first', async () => {
  const feed = await search('Café Paris');
  expect(ids(feed)).toEqual(['tagged', 'both', 'title']);
  expect(feed.title).toBe('Search: Café Paris');
  expect(feed.feed_url).toBe(`${h.url}/imported/archive/${ada.siteId}/search.json?q=Caf%C3%A9%20Paris`);
  expect(feed.next_url).toBeUndefined();
});

it('matches whole terms, case- and diacritic-insensitively, compatibility forms folded', async () => {
  expect(ids(await search('cafe'))).toEqual(['tagged', 'both', 'title']);
  expect(ids(await search('PARIS'))).toEqual(['tagged', 'paris-only', 'both', 'title']);
  expect(ids(await search('naive RESUME fullwidth'))).toEqual(['naïve']);
  expect(ids(await search('  "cafe," -- paris!  '))).toEqual(['tagged', 'both', 'title']);
});

it('answers 200 with no items when nothing matches', async () => {
  const feed = await search('cafe zebra');
  expect(feed.items).toEqual([]);
});

it('returns at most 100 results, newest first', async () => {
  const feed = await search('common word');
  expect(feed.items).toHaveLength(100);
  expect(feed.items[0]!.id).toBe('many-129');
  expect(feed.items[99]!.id).toBe('many-030');
});
