// POST /feeds/v2/subscriptions.json: a feed URL or a site URL (discovery), and the 200 / 302 / 300 /
// 404 outcomes with Location; bad feed_url values; the SSRF guard refusing before any fetch.
import { describe, expect, test } from '@jest/globals';
import { fixture, rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { discoverFeeds } from '../src/feeds/discover.js';
import { PUBLIC_URL, startReader, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

const post = (user: TestUser, body: object | string, headers?: Record<string, string>) =>
  h.req(user, 'POST', '/feeds/v2/subscriptions.json', body, headers);

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

describe('outcomes', () => {
  test('a feed URL → 200 with Location and the Subscription; again → 302 with the same', async () => {
    const first = await post(ann, { feed_url: feeds.url('/rss2.xml') });
    expect(first.statusCode).toBe(200);
    const sub = first.json();
    expect(Object.keys(sub)).toEqual(['id', 'created_at', 'feed_id', 'title', 'feed_url', 'site_url']);
    expect(sub).toMatchObject({
      title: 'Example Blog',
      feed_url: feeds.url('/rss2.xml'),
      site_url: feeds.url('/'),
    });
    expect(first.headers.location).toBe(`${PUBLIC_URL}/feeds/v2/subscriptions/${sub.id}.json`);
    const again = await post(ann, { feed_url: feeds.url('/rss2.xml') });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.json()).toEqual(sub);
  });

  test('a page with one alternate feed → 200 for that feed', async () => {
    const bob = h.identity.addUser('bob');
    const res = await post(bob, { feed_url: feeds.url('/page-alternate.html') });
    expect(res.statusCode).toBe(200);
    expect(res.json().feed_url).toBe(feeds.url('/rss2.xml'));
  });

  test('a page with two feeds → 300 with the choices', async () => {
    const res = await post(ann, { feed_url: feeds.url('/page-two-feeds.html') });
    expect(res.statusCode).toBe(300);
    expect(res.json()).toEqual([
      { feed_url: feeds.url('/atom.xml'), title: 'Atom Journal', is_json_feed: false },
      { feed_url: feeds.url('/feed11.json'), title: 'JSON Eleven', is_json_feed: true },
    ]);
    expect((await h.get(ann, '/feeds/v2/subscriptions.json')).json()).toHaveLength(1);
  });

  test('a page whose body links to a feed → that feed', async () => {
    const res = await post(ann, { url: feeds.url('/page-anchor.html') });
    expect(res.statusCode).toBe(200);
    expect(res.json().feed_url).toBe(feeds.url('/atom.xml'));
  });

  test('a page without feeds: the usual paths are probed, then 404 "No feed found"', async () => {
    const site = await startFeedServer({ fixtures: false });
    site.set('/', { body: fixture('page-none.html'), headers: { 'content-type': 'text/html' } });
    const res = await post(ann, { feed_url: site.url('/') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'No feed found', errors: [] });
    expect(site.requests.map((r) => r.path)).toEqual([
      '/',
      '/feed',
      '/rss',
      '/index.xml',
      '/atom.xml',
      '/feed.json',
    ]);
    await site.close();
  });

  test('a probed path that is a feed is found', async () => {
    const site = await startFeedServer({ fixtures: false });
    site.set('/', { body: fixture('page-none.html'), headers: { 'content-type': 'text/html' } });
    site.set('/index.xml', { body: fixture('rss1.xml') });
    const res = await post(ann, { feed_url: site.url('/') });
    expect(res.statusCode).toBe(200);
    expect(res.json().feed_url).toBe(site.url('/index.xml'));
    await site.close();
  });

  test('unreachable, failing and non-feed targets → 404', async () => {
    feeds.set('/gone.xml', { status: 500, body: 'oops' });
    for (const url of [feeds.url('/gone.xml'), feeds.url('/missing.xml'), 'http://127.0.0.1:1/feed.xml']) {
      const res = await post(ann, { feed_url: url });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No feed found');
    }
  });

  test('a permanent redirect during discovery stores the final URL; a temporary one the asked URL', async () => {
    feeds.set('/moved.xml', { status: 301, headers: { location: '/atom.xml' } });
    feeds.set('/elsewhere.xml', { status: 302, headers: { location: '/rss1.xml' } });
    const carl = h.identity.addUser('carl');
    expect((await post(carl, { feed_url: feeds.url('/moved.xml') })).json().feed_url).toBe(
      feeds.url('/atom.xml'),
    );
    expect((await post(carl, { feed_url: feeds.url('/elsewhere.xml') })).json().feed_url).toBe(
      feeds.url('/elsewhere.xml'),
    );
  });

  test('one feed record per URL: the second subscriber gets the same feed_id without a fetch', async () => {
    const dana = h.identity.addUser('dana');
    const before = feeds.hits('/rss2.xml');
    const sub = await h.subscribe(dana, feeds.url('/rss2.xml'));
    const anns = (await h.get(ann, '/feeds/v2/subscriptions.json')).json();
    expect(anns.map((s: { feed_id: number }) => s.feed_id)).toContain(sub.feed_id);
    expect(feeds.hits('/rss2.xml')).toBe(before);
  });

  test('a new subscription makes at most the newest 100 entries unread', async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ guid: `n${150 - i}`, title: `N ${150 - i}` }));
    feeds.set('/many.xml', { body: rssWithItems('Many', items) });
    const erin = h.identity.addUser('erin');
    await h.subscribe(erin, feeds.url('/many.xml'));
    const unread: number[] = (await h.get(erin, '/feeds/v2/unread_entries.json')).json();
    expect(unread).toHaveLength(100);
    const newest = (await h.get(erin, '/feeds/v2/entries.json?per_page=100'))
      .json()
      .map((e: { id: number }) => e.id);
    expect(unread).toEqual(newest);
  });
});

describe('time budget', () => {
  test('discovery gives up when its budget is spent, so the client gets 404 before the gateway times out', async () => {
    const slow = await startFeedServer({ fixtures: false });
    slow.set('/', { body: fixture('page-none.html'), headers: { 'content-type': 'text/html' } });
    for (const path of ['/feed', '/rss', '/index.xml', '/atom.xml', '/feed.json'])
      slow.set(path, { delayMs: 400, status: 404 });
    const started = Date.now();
    expect(await discoverFeeds(h.ctx.fetcher, slow.url('/'), 600)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(slow.requests.length).toBeLessThan(6);
    await slow.close();
  });
});

describe('bad feed_url', () => {
  test.each([
    ['missing', {}, 'Missing parameter: feed_url'],
    ['empty', { feed_url: '' }, 'Missing parameter: feed_url'],
    ['ftp scheme', { feed_url: 'ftp://example.com/feed' }, 'Must be an http or https URL'],
    ['javascript', { feed_url: 'javascript:alert(1)' }, 'Must be an http or https URL'],
    ['too long', { feed_url: `https://example.com/${'a'.repeat(2050)}` }, 'Must be at most 2048 characters'],
  ])('%s → 400 naming feed_url', async (_what, body, message) => {
    const res = await post(ann, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Bad Request', errors: [{ feed_url: message }] });
  });

  test('a value without a scheme gets https://', async () => {
    // The local server speaks plain HTTP, so the https:// attempt fails: proof that it was made.
    const before = feeds.hits('/rss1.xml');
    const res = await post(ann, { feed_url: `${feeds.host}/rss1.xml` });
    expect(res.statusCode).toBe(404);
    expect(feeds.hits('/rss1.xml')).toBe(before);
  });
});

describe('the SSRF guard', () => {
  test('without an allow-list, http://127.0.0.1/… → 404 and no request is made', async () => {
    const guarded = await startReader({ OUTBOUND_ALLOW_HOSTS: '' });
    const zed = guarded.identity.addUser('zed');
    const before = feeds.requests.length;
    for (const url of [
      'http://127.0.0.1/feed',
      feeds.url('/rss2.xml'),
      'http://[::1]:8080/x',
      'http://10.1.2.3/f',
    ]) {
      const res = await guarded.req(zed, 'POST', '/feeds/v2/subscriptions.json', { feed_url: url });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No feed found');
    }
    expect(feeds.requests.length).toBe(before);
    await guarded.stop();
  });
});
