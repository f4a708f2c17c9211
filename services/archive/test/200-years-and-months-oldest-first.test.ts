// years.json: the distinct years with posts, ascending integers. {year}/{month}.json: the posts of
// that UTC calendar month, oldest first (`4` and `04` alike), a month without posts → 200 with no
// items; more than 1,000 in a month → the first 1,000 and a next_url with offset.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jsonFeed, type FeedItem } from './fixtures.js';
import { ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  const items: FeedItem[] = [
    { id: 'a', content_text: 'a', date_published: '2019-04-30T23:30:00-02:00' }, // 2019-05-01 UTC
    { id: 'b', content_text: 'b', date_published: '2019-04-02T09:15:00Z' },
    { id: 'c', content_text: 'c', date_published: '2019-04-01T00:00:00Z' },
    { id: 'd', content_text: 'd', date_published: '2014-12-31T23:59:59Z' },
    { id: 'e', content_text: 'e', date_published: '2015-06-01T00:00:00+00:00' },
    ...Array.from({ length: 1003 }, (_, i) => ({
      id: `m${String(i).padStart(4, '0')}`,
      content_text: 'busy month',
      date_published: new Date(Date.UTC(2021, 2, 1) + i * 60_000).toISOString(),
    })),
  ];
  await h.importFile(ada, jsonFeed(items), 'application/json');
});
afterAll(() => h?.stop());

it('years.json is an ascending array of integers', async () => {
  const res = await h.request('GET', `/imported/archive/${ada.siteId}/years.json`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.body).toBe('[2014,2015,2019,2021]');
});

it('/2019/4.json and /2019/04.json give the same posts, oldest first', async () => {
  const four = await h.feed(`/imported/archive/${ada.siteId}/2019/4.json`);
  const padded = await h.feed(`/imported/archive/${ada.siteId}/2019/04.json`);
  expect(ids(four)).toEqual(['c', 'b']);
  expect(ids(padded)).toEqual(ids(four));
  expect(four.title).toBe('ada — 2019-04');
  expect(four.feed_url).toBe(`${h.url}/imported/archive/${ada.siteId}/2019/04.json`);
  expect(ids(await h.feed(`/imported/archive/${ada.siteId}/2019/5.json`))).toEqual(['a']);
});

it('a valid month without posts is 200 with no items', async () => {
  const feed = await h.feed(`/imported/archive/${ada.siteId}/2016/02.json`);
  expect(feed.items).toEqual([]);
  expect(feed.next_url).toBeUndefined();
});

it('a month of more than 1,000 posts gives the first 1,000 and next_url with offset', async () => {
  const path = `/imported/archive/${ada.siteId}/2021/3.json`;
  const first = await h.feed(path);
  expect(first.items).toHaveLength(1000);
  expect(first.items[0]!.id).toBe('m0000');
  expect(first.next_url).toBe(`${h.url}/imported/archive/${ada.siteId}/2021/03.json?offset=1000`);
  const rest = await h.feed(new URL(first.next_url!).pathname + new URL(first.next_url!).search);
  expect(ids(rest)).toEqual(['m1000', 'm1001', 'm1002']);
  expect(rest.next_url).toBeUndefined();
});

it('an archive without posts has years [] ', async () => {
  const bob = await h.createUser('bob');
  const state = await h.importFile(bob, jsonFeed([]), 'application/json');
  expect(state).toMatchObject({ status: 'complete', imported: 0 });
  const res = await h.request('GET', `/imported/archive/${bob.siteId}/years.json`);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual([]);
  expect((await h.feed(`/imported/archive/${bob.siteId}/recent.json`)).items).toEqual([]);
});
