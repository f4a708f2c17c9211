// Two users: nothing of one can be read, changed or even detected by the other. Another user's object
// answers exactly like a missing one, and bulk endpoints drop foreign ids silently.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let bob: TestUser;
let annSub: { id: number; feed_id: number };
let annEntry: number;
let annTagging: number;
let annHighlight: number;
let annImport: number;

async function annState() {
  const get = async (url: string) => (await h.get(ann, url)).body;
  return Promise.all(
    [
      '/feeds/v2/subscriptions.json',
      '/feeds/v2/unread_entries.json',
      '/feeds/v2/starred_entries.json',
      '/feeds/v2/taggings.json',
      '/feeds/highlights',
      '/feeds/v2/imports.json',
    ].map(get),
  );
}

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  bob = h.identity.addUser('bob');
  annSub = await h.subscribe(ann, feeds.url('/rss2.xml'));
  await h.subscribe(bob, feeds.url('/atom.xml'));
  annEntry = (await h.get(ann, '/feeds/v2/unread_entries.json')).json()[0];
  annTagging = (
    await h.req(ann, 'POST', '/feeds/v2/taggings.json', { feed_id: annSub.feed_id, name: 'Tech' })
  ).json().id;
  annHighlight = (await h.req(ann, 'POST', `/feeds/${annEntry}/highlights`, { text: 'mine' })).json().id;
  const opml = '<?xml version="1.0"?><opml version="2.0"><body></body></opml>';
  annImport = (
    await h.req(ann, 'POST', '/feeds/v2/imports.json', opml, { 'content-type': 'text/xml' })
  ).json().id;
});

describe('another user’s objects are 404, and stay unchanged', () => {
  test.each([
    ['GET', () => `/feeds/v2/subscriptions/${annSub.id}.json`, undefined],
    ['PATCH', () => `/feeds/v2/subscriptions/${annSub.id}.json`, { title: 'mine now' }],
    ['DELETE', () => `/feeds/v2/subscriptions/${annSub.id}.json`, undefined],
    ['POST', () => `/feeds/v2/subscriptions/${annSub.id}/update.json`, { title: 'x' }],
    ['GET', () => `/feeds/v2/entries/${annEntry}.json`, undefined],
    ['GET', () => `/feeds/v2/feeds/${annSub.feed_id}/entries.json`, undefined],
    ['GET', () => `/feeds/v2/taggings/${annTagging}.json`, undefined],
    ['DELETE', () => `/feeds/v2/taggings/${annTagging}.json`, undefined],
    ['POST', () => '/feeds/v2/taggings.json', () => ({ feed_id: annSub.feed_id, name: 'Stolen' })],
    ['GET', () => `/feeds/v2/imports/${annImport}.json`, undefined],
    ['GET', () => `/feeds/${annEntry}/highlights`, undefined],
    ['POST', () => `/feeds/${annEntry}/highlights`, { text: 'hi' }],
    ['DELETE', () => `/feeds/${annEntry}/highlights/${annHighlight}`, undefined],
  ])('%s %s', async (method, url, payload) => {
    const before = await annState();
    const jobsBefore = await h.store.collection('jobs').countDocuments({});
    const body = typeof payload === 'function' ? payload() : payload;
    const res = await h.req(bob, method, url(), body);
    expect(res.statusCode).toBe(404);
    expect(await annState()).toEqual(before);
    expect(await h.store.collection('jobs').countDocuments({})).toBe(jobsBefore);
  });

  test('an unknown id answers exactly like another user’s', async () => {
    const foreign = await h.get(bob, `/feeds/v2/subscriptions/${annSub.id}.json`);
    const unknown = await h.get(bob, '/feeds/v2/subscriptions/987654.json');
    expect(foreign.body).toBe(unknown.body);
    const foreignHl = await h.req(bob, 'DELETE', `/feeds/${annEntry}/highlights/${annHighlight}`);
    const unknownHl = await h.req(bob, 'DELETE', `/feeds/${annEntry}/highlights/987654`);
    expect(foreignHl.body).toBe(unknownHl.body);
  });
});

describe('bulk endpoints drop foreign ids silently', () => {
  test('ids=, unread, starred and recap never act on or reveal another user’s entries', async () => {
    const before = await annState();
    expect((await h.get(bob, `/feeds/v2/entries.json?ids=${annEntry}`)).json()).toEqual([]);
    for (const [method, url] of [
      ['POST', '/feeds/v2/unread_entries.json'],
      ['DELETE', '/feeds/v2/unread_entries.json'],
      ['POST', '/feeds/v2/starred_entries.json'],
      ['DELETE', '/feeds/v2/starred_entries.json'],
    ] as const) {
      const res = await h.req(bob, method, url, [annEntry]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    }
    const recap = await h.req(bob, 'POST', '/feeds/recap', [annEntry]);
    expect(recap.statusCode).toBe(400);
    expect(await annState()).toEqual(before);
    expect((await h.get(bob, '/feeds/v2/unread_entries.json')).json()).not.toContain(annEntry);
  });

  test('lists show only the user’s own data', async () => {
    expect((await h.get(bob, '/feeds/v2/taggings.json')).json()).toEqual([]);
    expect((await h.get(bob, '/feeds/highlights')).json().items).toEqual([]);
    expect((await h.get(bob, '/feeds/v2/imports.json')).json()).toEqual([]);
    const subs = (await h.get(bob, '/feeds/v2/subscriptions.json')).json();
    expect(subs.map((s: { feed_url: string }) => s.feed_url)).toEqual([feeds.url('/atom.xml')]);
  });
});

describe('a shared feed', () => {
  test('one feed record; read state stays per user', async () => {
    const bobSub = await h.subscribe(bob, feeds.url('/rss2.xml'));
    expect(bobSub.feed_id).toBe(annSub.feed_id);
    await h.req(bob, 'DELETE', '/feeds/v2/unread_entries.json', [annEntry]);
    expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).toContain(annEntry);
    expect((await h.get(bob, '/feeds/v2/unread_entries.json')).json()).not.toContain(annEntry);
    expect(await h.store.collection('feeds').countDocuments({})).toBe(2);
  });
});
