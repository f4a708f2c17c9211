// Every reader endpoint refuses a request without valid credentials (401, WWW-Authenticate, the area's
// error shape); HTTP Basic with a username or email and an app token works like the token itself.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { basic, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/feeds/v2/authentication.json'],
  ['GET', '/feeds/v2/entries.json'],
  ['GET', '/feeds/v2/entries/1.json'],
  ['GET', '/feeds/v2/feeds/1/entries.json'],
  ['GET', '/feeds/v2/icons.json'],
  ['GET', '/feeds/v2/unread_entries.json'],
  ['POST', '/feeds/v2/unread_entries.json'],
  ['DELETE', '/feeds/v2/unread_entries.json'],
  ['POST', '/feeds/v2/unread_entries/delete.json'],
  ['GET', '/feeds/v2/starred_entries.json'],
  ['POST', '/feeds/v2/starred_entries.json'],
  ['DELETE', '/feeds/v2/starred_entries.json'],
  ['POST', '/feeds/v2/starred_entries/delete.json'],
  ['GET', '/feeds/v2/subscriptions.json'],
  ['POST', '/feeds/v2/subscriptions.json'],
  ['GET', '/feeds/v2/subscriptions/1.json'],
  ['PATCH', '/feeds/v2/subscriptions/1.json'],
  ['DELETE', '/feeds/v2/subscriptions/1.json'],
  ['POST', '/feeds/v2/subscriptions/1/update.json'],
  ['GET', '/feeds/v2/subscriptions.xml'],
  ['GET', '/feeds/v2/taggings.json'],
  ['POST', '/feeds/v2/taggings.json'],
  ['GET', '/feeds/v2/taggings/1.json'],
  ['DELETE', '/feeds/v2/taggings/1.json'],
  ['GET', '/feeds/v2/tags.json'],
  ['POST', '/feeds/v2/tags.json'],
  ['DELETE', '/feeds/v2/tags.json'],
  ['GET', '/feeds/v2/imports.json'],
  ['POST', '/feeds/v2/imports.json'],
  ['GET', '/feeds/v2/imports/1.json'],
  ['GET', '/feeds/highlights'],
  ['GET', '/feeds/1/highlights'],
  ['POST', '/feeds/1/highlights'],
  ['DELETE', '/feeds/1/highlights/1'],
  ['POST', '/feeds/recap'],
  ['GET', '/feeds/recap/email'],
  ['POST', '/feeds/recap/email'],
];

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let entryId: number;

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  await h.subscribe(ann, feeds.url('/rss2.xml'));
  entryId = (await h.get(ann, '/feeds/v2/unread_entries.json')).json()[0];
});

describe('without credentials', () => {
  test.each(ENDPOINTS)('%s %s → 401 in the area error shape', async (method, url) => {
    const res = await h.req(null, method, url);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="service"');
    expect(res.headers.date).toBeDefined();
    if (url.startsWith('/feeds/v2/'))
      expect(res.json()).toEqual({ status: 401, message: 'Unauthorized', errors: [] });
    else expect(res.json()).toEqual({ error: expect.any(String) });
  });
});

describe('with bad credentials', () => {
  test.each([
    ['an unknown bearer token', { authorization: 'Bearer not-a-token' }],
    ['Basic with a wrong token', basic('ann', 'wrong')],
    ['Basic with another user’s name', basic('bob', 'x')],
    ['Basic without a password', { authorization: `Basic ${Buffer.from('ann').toString('base64')}` }],
    ['an unknown scheme', { authorization: 'Digest abc' }],
  ])('%s → 401', async (_what, headers) => {
    const res = await h.req(null, 'GET', '/feeds/v2/unread_entries.json', undefined, headers);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="service"');
  });
});

describe('HTTP Basic with an app token', () => {
  test('username + app token: authentication.json answers 200 with an empty body', async () => {
    const res = await h.req(null, 'GET', '/feeds/v2/authentication.json', undefined, basic('ann', ann.token));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  test('email + app token reads and writes like the token', async () => {
    const auth = basic('ann@example.com', ann.token);
    const starred = await h.req(null, 'POST', '/feeds/v2/starred_entries.json', [entryId], auth);
    expect(starred.statusCode).toBe(200);
    expect(starred.json()).toEqual([entryId]);
    const list = await h.req(null, 'GET', '/feeds/v2/starred_entries.json', undefined, auth);
    expect(list.json()).toEqual([entryId]);
  });

  test('the Bearer form of the same token sees the same data', async () => {
    expect((await h.get(ann, '/feeds/v2/starred_entries.json')).json()).toEqual([entryId]);
  });
});

describe('scopes of IndieAuth tokens', () => {
  test('`read` may read and mark, but not subscribe or highlight', async () => {
    const reader = h.identity.addUser('reader-app', ['read']);
    expect((await h.get(reader, '/feeds/v2/subscriptions.json')).statusCode).toBe(200);
    expect((await h.req(reader, 'POST', '/feeds/v2/unread_entries.json', [1])).statusCode).toBe(200);
    const sub = await h.req(reader, 'POST', '/feeds/v2/subscriptions.json', {
      feed_url: feeds.url('/atom.xml'),
    });
    expect(sub.statusCode).toBe(403);
    expect((await h.req(reader, 'POST', '/feeds/1/highlights', { text: 'x' })).statusCode).toBe(403);
  });

  test('`create` implies read and follow', async () => {
    const app = h.identity.addUser('writer-app', ['create']);
    expect((await h.get(app, '/feeds/v2/entries.json')).statusCode).toBe(200);
    expect(
      (await h.req(app, 'POST', '/feeds/v2/subscriptions.json', { feed_url: feeds.url('/atom.xml') }))
        .statusCode,
    ).toBe(200);
  });
});
