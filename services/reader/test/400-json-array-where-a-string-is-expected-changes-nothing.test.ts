// A JSON value of the wrong type is a 400 naming the field (docs/api/conventions.md, Parameters): a
// JSON body has one value per name, so `{"title": ["a"]}` is not the title "a" (issue 37 renamed a
// subscription so) and `{"text": ["a"]}` creates no highlight. A form may still repeat a name.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let sub: { id: number };
let entry: { id: number };

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  sub = (await h.subscribe(ann, feeds.url('/rss2.xml'))) as typeof sub;
  [entry] = (await h.get(ann, '/feeds/v2/entries.json')).json();
});

describe('PATCH /feeds/v2/subscriptions/{id}.json', () => {
  test.each([
    ['an array', ['a']],
    ['an object', { text: 'a' }],
  ])('a title that is %s → 400 naming title, and the title stays', async (_what, title) => {
    const before = (await h.get(ann, `/feeds/v2/subscriptions/${sub.id}.json`)).json().title;
    const res = await h.req(ann, 'PATCH', `/feeds/v2/subscriptions/${sub.id}.json`, { title });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ title: 'Must be a string' }]);
    expect((await h.get(ann, `/feeds/v2/subscriptions/${sub.id}.json`)).json().title).toBe(before);
  });

  test('sanity: a form repeating title takes the last one', async () => {
    const res = await h.req(
      ann,
      'PATCH',
      `/feeds/v2/subscriptions/${sub.id}.json`,
      'title=first&title=second',
      FORM,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('second');
  });
});

describe('POST /feeds/{entry_id}/highlights', () => {
  test('{"text": ["a"]} → 400 naming text, and nothing stored', async () => {
    const before = await h.store.collection('highlights').countDocuments({});
    const res = await h.req(ann, 'POST', `/feeds/${entry.id}/highlights`, { text: ['a'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'text: must be a string' });
    expect(await h.store.collection('highlights').countDocuments({})).toBe(before);
  });

  test('{"start": [1]} → 400 naming start', async () => {
    const res = await h.req(ann, 'POST', `/feeds/${entry.id}/highlights`, { text: 'a', start: [1] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'start: must be a non-negative integer' });
  });

  test('sanity: a form repeating text creates one highlight of the last text', async () => {
    const res = await h.req(ann, 'POST', `/feeds/${entry.id}/highlights`, 'text=a&text=b', FORM);
    expect(res.statusCode).toBe(200);
    const list = (await h.get(ann, `/feeds/highlights`)).json();
    expect(JSON.stringify(list)).toContain('"b"');
  });
});
