// Bad input gets the right status with a message naming the problem, and never changes stored data.
import { expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let sub: { id: number; feed_id: number };
let entry: number;

const COLLECTIONS = [
  'feeds', 'feed_timelines', 'entries', 'user_states', 'subscriptions', 'taggings', 'tags', 'icons',
  'highlights', 'recaps', 'recap_settings', 'imports', 'counters',
]; // prettier-ignore

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const name of COLLECTIONS)
    parts.push(JSON.stringify(await h.store.collection(name).find({}, { sort: { _id: 1 } })));
  return parts.join('\n');
}

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  sub = await h.subscribe(ann, feeds.url('/rss2.xml'));
  entry = (await h.get(ann, '/feeds/v2/unread_entries.json')).json()[0];
  await h.idle();
});

const JSON_TYPE = { 'content-type': 'application/json' };

test.each([
  ['POST', '/feeds/v2/subscriptions.json', 400, { feed_url: 'mailto:me@example.com' }, /feed_url/],
  ['PATCH', '/feeds/v2/subscriptions/SUB.json', 400, { title: '' }, /title/],
  ['POST', '/feeds/v2/subscriptions/SUB/update.json', 400, { title: 'x'.repeat(300) }, /title/],
  ['POST', '/feeds/v2/unread_entries.json', 400, { unread_entries: 'a,b' }, /unread_entries/],
  ['DELETE', '/feeds/v2/starred_entries.json', 400, {}, /starred_entries/],
  ['POST', '/feeds/v2/taggings.json', 400, { feed_id: 'FEED', name: '' }, /name/],
  ['POST', '/feeds/v2/tags.json', 400, { old_name: 'x' }, /new_name/],
  ['POST', '/feeds/ENTRY/highlights', 400, { text: 'x', start: 9, end: 1 }, /end/],
  ['POST', '/feeds/recap', 400, { ids: [] }, /ids/],
  ['POST', '/feeds/recap/email', 400, { dayofweek: 'someday' }, /dayofweek/],
  ['POST', '/feeds/v2/unread_entries.json', 400, '{"unread_entries": [1,', /"status":400/],
  [
    'POST',
    '/feeds/v2/unread_entries.json',
    413,
    `{"unread_entries": [${'1,'.repeat(140_000)}1]}`,
    /"status":413/,
  ],
  ['POST', '/feeds/v2/starred_entries.json', 415, '<ids/>', /"status":415/],
])('%s %s → %i, data unchanged', async (method, path, status, body, message) => {
  const url = path.replace('SUB', String(sub.id)).replace('ENTRY', String(entry));
  const payload =
    typeof body === 'string' ? body : JSON.parse(JSON.stringify(body).replace('"FEED"', String(sub.feed_id)));
  const before = await snapshot();
  const headers =
    typeof body === 'string' && body.startsWith('<') ? { 'content-type': 'text/xml' } : JSON_TYPE;
  const res = await h.req(ann, method, url, payload, headers);
  expect(res.statusCode).toBe(status);
  expect(res.body).toMatch(message);
  await h.idle();
  expect(await snapshot()).toBe(before);
});

test('a __proto__ key in a JSON body is dropped, never reaching an object prototype', async () => {
  const body = '{"text": "kept", "__proto__": {"polluted": true}, "constructor": {"prototype": {"bad": 1}}}';
  const res = await h.req(ann, 'POST', `/feeds/${entry}/highlights`, body, JSON_TYPE);
  expect(res.statusCode).toBe(200);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).bad).toBeUndefined();
  const stored = await h.store.collection('highlights').findOne({ _id: res.json().id });
  expect(Object.keys(stored!).sort()).toEqual(
    ['_id', 'createdAt', 'end', 'entryId', 'entryTitle', 'entryUrl', 'start', 'text', 'userId'].sort(),
  );
});
