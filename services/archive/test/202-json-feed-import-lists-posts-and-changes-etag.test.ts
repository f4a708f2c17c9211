// Import of a JSON Feed (1.1 and version 1 exports) → 202 {id, status: queued}; the job imports every
// item; recent.json then lists them newest first and its ETag has changed; re-importing the same
// file updates instead of duplicating.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed, V1 } from './fixtures.js';
import { ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

it('answers 202 with a queued import, then lists its posts newest first with a new ETag', async () => {
  const res = await h.upload(ada, jsonFeed(dailyPosts(30)), 'application/feed+json');
  expect(res.statusCode).toBe(202);
  const accepted = res.json();
  expect(accepted).toEqual({ id: expect.stringMatching(/^imp-\d+$/), status: 'queued' });
  const done = await h.waitImport(ada, accepted.id);
  expect(done).toEqual({ id: accepted.id, status: 'complete', imported: 30, skipped: 0, error: null });

  const feed = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(feed.items).toHaveLength(25);
  expect(ids(feed).slice(0, 3)).toEqual(['p29', 'p28', 'p27']);
  expect(feed.title).toBe('ada — archive');
  expect(feed.home_page_url).toBe(ada.siteUrl);
  expect(feed.feed_url).toBe(`${h.url}/imported/archive/${ada.siteId}/recent.json`);
  const first = feed.items[0]!;
  expect(first).toEqual({
    id: 'p29',
    url: 'https://old.example/posts/29',
    title: 'Post number 29',
    content_html: '<p>Entry 29 of the diary.</p>',
    content_text: 'Entry 29 of the diary.',
    date_published: '2015-01-30T09:00:00+00:00',
  });
  const etag = feed.response.headers['etag'];

  // Same file again, one post changed: nothing duplicated, the change is there, the ETag moved.
  const posts = dailyPosts(30);
  posts[29]!.title = 'Renamed';
  const again = await h.importFile(ada, jsonFeed(posts), 'application/json');
  expect(again).toMatchObject({ status: 'complete', imported: 30 });
  const after = await h.feed(`/imported/archive/${ada.siteId}/recent.json?offset=25`);
  expect(ids(after)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
  const top = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(top.items[0]!.title).toBe('Renamed');
  expect(top.response.headers['etag']).not.toBe(etag);
});

it('imports a version 1 export with numeric ids as string ids, and items with only a url', async () => {
  const bob = await h.createUser('bob');
  const state = await h.importFile(
    bob,
    jsonFeed(
      [
        { id: 7, content_html: '<p>seven</p>', date_published: '2020-01-01T00:00:00Z' },
        {
          url: 'https://old.example/only-url',
          content_text: 'no id',
          date_published: '2020-01-02T00:00:00Z',
        },
        { content_text: 'neither id nor url', date_published: '2020-01-03T00:00:00Z' },
      ],
      V1,
    ),
    'application/json',
  );
  expect(state).toMatchObject({ status: 'complete', imported: 2, skipped: 1 });
  const feed = await h.feed(`/imported/archive/${bob.siteId}/recent.json`);
  expect(ids(feed)).toEqual(['https://old.example/only-url', '7']);
  expect(feed.items[0]!.content_html).toBe('<p>no id</p>');
  // Ada's archive is untouched by Bob's import.
  const ada1 = await h.feed(`/imported/archive/${ada.siteId}/recent.json?offset=25`);
  expect(ada1.items).toHaveLength(5);
});

it('counts an id repeated in one file once, the later item winning, even across batches of 500', async () => {
  const carol = await h.createUser('carol');
  const items = Array.from({ length: 1200 }, (_, i) => ({
    id: `d${i % 550}`,
    content_text: `version ${i}`,
    date_published: new Date(Date.UTC(2020, 0, 1) + (i % 550) * 60_000).toISOString(),
  }));
  const state = await h.importFile(carol, jsonFeed(items), 'application/json');
  expect(state).toMatchObject({ status: 'complete', imported: 550, skipped: 0 });
  const top = await h.feed(`/imported/archive/${carol.siteId}/recent.json`);
  expect(top.items[0]).toMatchObject({ id: 'd549', content_text: 'version 1099' });
  const last = await h.feed(`/imported/archive/${carol.siteId}/recent.json?offset=525`);
  expect(last.items.at(-1)).toMatchObject({ id: 'd0', content_text: 'version 1100' });
  expect(last.next_url).toBeUndefined();
});
