// The unread and starred sets: complete GETs, every body form, visible ids only, idempotent retries,
// the 1,000-id cap, and bad bodies that change nothing.
import { describe, expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let bob: TestUser;
let ids: number[];
let bobsEntry: number;

const items = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ guid: `${prefix}${i}`, title: `${prefix} ${i}` }));
const unread = async (user = ann): Promise<number[]> =>
  (await h.get(user, '/feeds/v2/unread_entries.json')).json();
const starred = async (user = ann): Promise<number[]> =>
  (await h.get(user, '/feeds/v2/starred_entries.json')).json();

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  bob = h.identity.addUser('bob');
  feeds.set('/a.xml', { body: rssWithItems('A', items('a', 700)) });
  feeds.set('/b.xml', { body: rssWithItems('B', items('b', 600)) });
  await h.subscribe(ann, feeds.url('/a.xml'));
  await h.subscribe(ann, feeds.url('/b.xml'));
  await h.subscribe(bob, feeds.url('/rss2.xml'));
  bobsEntry = (await unread(bob))[0]!;
  ids = (await h.get(ann, '/feeds/v2/entries.json?per_page=1000')).json().map((e: { id: number }) => e.id);
  ids.push(
    ...(await h.get(ann, '/feeds/v2/entries.json?per_page=1000&page=2'))
      .json()
      .map((e: { id: number }) => e.id),
  );
});

describe('unread', () => {
  test('a new subscription starts with its newest 100 entries unread', async () => {
    expect(await unread()).toHaveLength(200);
  });

  test('marking unread in 1000-id chunks; GET lists all 1,300, unpaginated, newest first', async () => {
    const a = await h.req(ann, 'POST', '/feeds/v2/unread_entries.json', {
      unread_entries: ids.slice(0, 1000),
    });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(ids.slice(0, 1000));
    await h.req(ann, 'POST', '/feeds/v2/unread_entries.json', { unread_entries: ids.slice(1000) });
    const all = await unread();
    expect(all).toHaveLength(1300);
    expect(all).toEqual([...all].sort((x, y) => y - x));
    const res = await h.get(ann, '/feeds/v2/unread_entries.json');
    expect(res.headers.link).toBeUndefined();
  });

  test('DELETE marks read and answers only the visible ids, de-duplicated, in request order', async () => {
    const res = await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', {
      unread_entries: [ids[5], 999_999, ids[3], bobsEntry, ids[5]],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([ids[5], ids[3]]);
    const now = await unread();
    expect(now).not.toContain(ids[5]);
    expect(now).not.toContain(ids[3]);
    expect(await unread(bob)).toContain(bobsEntry);
  });

  test('POST unread_entries/delete.json marks read too; a retry answers the same', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await h.req(ann, 'POST', '/feeds/v2/unread_entries/delete.json', {
        unread_entries: [ids[7]],
      });
      expect(res.json()).toEqual([ids[7]]);
    }
    expect(await unread()).not.toContain(ids[7]);
  });

  test.each([
    ['a bare JSON array', (id: number) => ({ payload: [id] })],
    ['unread_entries[]= in a form', (id: number) => ({ payload: `unread_entries[]=${id}`, form: true })],
    ['unread_entries[0]= in a form', (id: number) => ({ payload: `unread_entries[0]=${id}`, form: true })],
    ['a comma-separated string', (id: number) => ({ payload: { unread_entries: `${id}` } })],
    ['the query string', (id: number) => ({ query: `?unread_entries=${id}` })],
  ])('accepts %s', async (_form, make) => {
    const id = ids[20]!;
    await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', [id]);
    const { payload, form, query } = make(id) as {
      payload?: string | object;
      form?: boolean;
      query?: string;
    };
    const headers: Record<string, string> = form
      ? { 'content-type': 'application/x-www-form-urlencoded' }
      : {};
    const res = await h.req(ann, 'POST', `/feeds/v2/unread_entries.json${query ?? ''}`, payload, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([id]);
    expect(await unread()).toContain(id);
  });
});

describe('bad bodies change nothing', () => {
  test.each([
    [
      '1001 ids',
      { unread_entries: Array.from({ length: 1001 }, (_, i) => i + 1) },
      'At most 1,000 ids per request',
    ],
    ['no unread_entries key', { entries: [1] }, 'Is required'],
    ['a non-integer id', { unread_entries: [1, 'x'] }, 'Must be a list of integer entry ids'],
    ['a fractional id', { unread_entries: [1.5] }, 'Must be a list of integer entry ids'],
  ])('%s → 400 naming unread_entries', async (_what, body, message) => {
    const before = await unread();
    for (const method of ['POST', 'DELETE']) {
      const res = await h.req(ann, method, '/feeds/v2/unread_entries.json', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status: 400,
        message: 'Bad Request',
        errors: [{ unread_entries: message }],
      });
    }
    expect(await unread()).toEqual(before);
  });

  test('a body that is neither JSON nor a form → 415', async () => {
    const res = await h.req(ann, 'POST', '/feeds/v2/unread_entries.json', '1,2', {
      'content-type': 'text/plain',
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('starred', () => {
  test('starring twice answers the id both times and stars it once', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', { starred_entries: [ids[1]] });
      expect(res.json()).toEqual([ids[1]]);
    }
    expect(await starred()).toEqual([ids[1]]);
    const doc = await h.store.collection('entries').findOne({ _id: ids[1]! });
    expect(doc!.stars).toBe(1);
  });

  test('another user’s entry cannot be starred; 1001 ids → 400', async () => {
    expect((await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [bobsEntry])).json()).toEqual([]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1);
    const res = await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', tooMany);
    expect(res.json()).toEqual({
      status: 400,
      message: 'Bad Request',
      errors: [{ starred_entries: 'At most 1,000 ids per request' }],
    });
  });

  test('DELETE and POST starred_entries/delete.json unstar', async () => {
    await h.req(ann, 'POST', '/feeds/v2/starred_entries.json', [ids[2], ids[3]]);
    expect((await h.req(ann, 'DELETE', '/feeds/v2/starred_entries.json', [ids[2]])).json()).toEqual([ids[2]]);
    const res = await h.req(ann, 'POST', '/feeds/v2/starred_entries/delete.json', {
      starred_entries: [ids[3]],
    });
    expect(res.json()).toEqual([ids[3]]);
    expect(await starred()).toEqual([ids[1]]);
    const doc = await h.store.collection('entries').findOne({ _id: ids[2]! });
    expect(doc!.stars).toBe(0);
  });
});
