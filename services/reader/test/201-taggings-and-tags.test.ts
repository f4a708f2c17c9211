// Taggings (a feed in a folder) and tags: create 201 / 302 with Location, show, list, delete 204,
// rename and delete a tag (each answering the user's full taggings).
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { PUBLIC_URL, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let rss: number;
let atom: number;

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  rss = (await h.subscribe(ann, feeds.url('/rss2.xml'))).feed_id;
  atom = (await h.subscribe(ann, feeds.url('/atom.xml'))).feed_id;
});

describe('taggings', () => {
  test('create → 201 with Location ending /taggings/{id}.json; the same again → 302', async () => {
    const res = await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: rss, name: 'Tech' });
    expect(res.statusCode).toBe(201);
    const tagging = res.json();
    expect(tagging).toEqual({ id: expect.any(Number), feed_id: rss, name: 'Tech' });
    expect(res.headers.location).toBe(`${PUBLIC_URL}/feeds/v2/taggings/${tagging.id}.json`);
    const again = await h.req(ann, 'POST', '/feeds/v2/taggings.json', `feed_id=${rss}&name=Tech`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe(res.headers.location);
    expect(again.json()).toEqual(tagging);
  });

  test.each([
    ['no feed_id', { name: 'X' }, 'feed_id'],
    ['no name', { feed_id: 1 }, 'name'],
    ['a blank name', { feed_id: 1, name: '  ' }, 'name'],
    ['a non-integer feed_id', { feed_id: 'x', name: 'X' }, 'feed_id'],
  ])('%s → 400 naming it', async (_what, body, param) => {
    const res = await h.req(ann, 'POST', '/feeds/v2/taggings.json', body);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors[0])).toEqual([param]);
  });

  test('a feed the user does not subscribe to → 404', async () => {
    expect(
      (await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: 999, name: 'X' })).statusCode,
    ).toBe(404);
  });

  test('list, show, delete → 204, then 404', async () => {
    const made = (
      await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: atom, name: 'Reading' })
    ).json();
    const list = (await h.get(ann, '/feeds/v2/taggings.json')).json();
    expect(list.map((t: { name: string }) => t.name)).toEqual(['Tech', 'Reading']);
    expect((await h.get(ann, `/feeds/v2/taggings/${made.id}.json`)).json()).toEqual(made);
    const del = await h.req(ann, 'DELETE', `/feeds/v2/taggings/${made.id}.json`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await h.get(ann, `/feeds/v2/taggings/${made.id}.json`)).statusCode).toBe(404);
    expect((await h.req(ann, 'DELETE', `/feeds/v2/taggings/${made.id}.json`)).statusCode).toBe(404);
  });
});

describe('tags', () => {
  test('list the folders; rename merges; delete removes; both answer the full taggings', async () => {
    await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: atom, name: 'Tech' });
    await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: atom, name: 'News' });
    const tags = (await h.get(ann, '/feeds/v2/tags.json')).json();
    expect(tags.map((t: { name: string }) => t.name)).toEqual(['News', 'Reading', 'Tech']);
    for (const t of tags) expect(t).toEqual({ id: expect.any(Number), name: expect.any(String) });

    const renamed = await h.req(ann, 'POST', '/feeds/v2/tags.json', { old_name: 'Tech', new_name: 'News' });
    expect(renamed.statusCode).toBe(200);
    expect(
      renamed
        .json()
        .map((t: { feed_id: number; name: string }) => [t.feed_id, t.name])
        .sort(),
    ).toEqual(
      [
        [atom, 'News'],
        [rss, 'News'],
      ].sort(),
    );
    const deleted = await h.req(ann, 'DELETE', '/feeds/v2/tags.json', { name: 'News' });
    expect(deleted.json()).toEqual([]);
    expect((await h.get(ann, '/feeds/v2/tags.json')).json().map((t: { name: string }) => t.name)).toEqual([
      'Reading',
    ]);
  });

  test('rename without new_name → 400', async () => {
    const res = await h.req(ann, 'POST', '/feeds/v2/tags.json', { old_name: 'Reading' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ new_name: 'Is required' }]);
  });

  test('unsubscribing removes the feed’s taggings', async () => {
    await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: rss, name: 'Keep' });
    const sub = (await h.get(ann, '/feeds/v2/subscriptions.json'))
      .json()
      .find((s: { feed_id: number }) => s.feed_id === rss);
    await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${sub.id}.json`);
    expect((await h.get(ann, '/feeds/v2/taggings.json')).json()).toEqual([]);
  });
});
