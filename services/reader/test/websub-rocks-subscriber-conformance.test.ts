// The subscriber tests of websub.rocks (the WebSub test suite, public repository aaronpk/websub.rocks,
// app/Subscriber.php and lib/Rocks/Hub.php), reproduced with our own publisher (test/feed-server.ts)
// and hub (test/fake-hub.ts) on 127.0.0.1 playing websub.rocks's part: the same documents, headers,
// redirects and verification requests, judged by what websub.rocks checks. Where the reader differs
// (it reads feeds, not HTML pages; it acknowledges a delivery without a signature with 2xx), the test
// name says so and the assertion is the reader's documented behaviour (docs/api/reader.md "WebSub").
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { atomWithHub, startFakeHub, type FakeHub } from './fake-hub.js';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let hub: FakeHub;
let ann: TestUser;

beforeAll(async () => {
  h = await startReader();
  feeds = await startFeedServer({ fixtures: false });
  hub = await startFakeHub(() => h.url);
  ann = h.identity.addUser('ann');
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await feeds?.close();
  await hub?.close();
});

const posts = (n: string) => [{ id: `${n}-q0`, title: `Quote ${n}` }];

/** websub.rocks's headers: `Link: <self>; rel="self"` and `Link: <hub>; rel="hub"`. */
const linkHeaders = (self: string, hubUrl: string) => ({
  link: `<${self}>; rel="self", <${hubUrl}>; rel="hub"`,
});

/** websub.rocks's RSS feed (feed-rss.php): hub and self as atom:link in the channel. */
function rssWithAtomLinks(hubUrl: string, self: string, title: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>` +
    `<title>WebSub Rocks!</title><atom:link href="${self}" rel="self" type="application/rss+xml"/>` +
    `<atom:link href="${hubUrl}" rel="hub"/><link>${self}</link>` +
    `<item><title>${title}</title><guid isPermaLink="true">${self}#quote-0</guid><link>${self}#quote-0</link>` +
    `<description>${title}</description></item></channel></rss>`
  );
}

async function settle() {
  await h.idle();
  await hub.settled();
}

/** Subscribes ann to `url`; the subscribe requests that reached the hub because of it. */
async function subscribeTo(url: string) {
  const before = hub.requests.length;
  const sub = await h.subscribe(ann, url);
  await settle();
  return { sub, requests: hub.requests.slice(before) };
}

const verifiedFor = (topic: string) => [...hub.subscriptions.values()].find((s) => s.topic === topic);

describe('discovery', () => {
  test('websub.rocks subscriber 100: HTTP header discovery — hub and self only in Link headers', async () => {
    const self = feeds.url('/blog/100');
    feeds.set('/blog/100', {
      headers: { 'content-type': 'application/atom+xml', ...linkHeaders(self, hub.url('/blog/100/hub')) },
      body: atomWithHub(null, null, posts('100')),
    });
    const { requests } = await subscribeTo(self);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/blog/100/hub');
    expect(requests[0]!.params.get('hub.topic')).toBe(self);
    expect(verifiedFor(self)?.verified).toBe(true);
  });

  test('websub.rocks subscriber 101: HTML tag discovery — adapted: a page’s hub tags are the page’s; the reader subscribes with the topic of the feed it follows', async () => {
    const page = feeds.url('/blog/101');
    const feed = feeds.url('/blog/101/feed.xml');
    feeds.set('/blog/101', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body:
        `<!doctype html><html><head><link rel="hub" href="${hub.url('/blog/101/page-hub')}">` +
        `<link rel="self" href="${page}"><link rel="alternate" type="application/atom+xml" href="${feed}">` +
        `</head><body><div class="h-feed">…</div></body></html>`,
    });
    feeds.set('/blog/101/feed.xml', {
      headers: { 'content-type': 'application/atom+xml' },
      body: atomWithHub(hub.url('/blog/101/hub'), feed, posts('101')),
    });
    const { requests } = await subscribeTo(page);
    expect(requests.map((r) => [r.path, r.params.get('hub.topic')])).toEqual([['/blog/101/hub', feed]]);
    expect(verifiedFor(feed)?.verified).toBe(true);
  });

  test('websub.rocks subscriber 102: Atom feed discovery — <link rel="hub"> and rel="self" in the feed', async () => {
    const self = feeds.url('/blog/102');
    feeds.set('/blog/102', {
      headers: { 'content-type': 'text/xml' },
      body: atomWithHub(hub.url('/blog/102/hub'), self, posts('102')),
    });
    const { requests } = await subscribeTo(self);
    expect(requests.map((r) => [r.path, r.params.get('hub.topic')])).toEqual([['/blog/102/hub', self]]);
    expect(verifiedFor(self)?.verified).toBe(true);
  });

  test('websub.rocks subscriber 103: RSS feed discovery — <atom:link rel="hub"> and rel="self" in the channel', async () => {
    const self = feeds.url('/blog/103');
    feeds.set('/blog/103', {
      headers: { 'content-type': 'text/xml' },
      body: rssWithAtomLinks(hub.url('/blog/103/hub'), self, 'Quote 103'),
    });
    const { requests } = await subscribeTo(self);
    expect(requests.map((r) => [r.path, r.params.get('hub.topic')])).toEqual([['/blog/103/hub', self]]);
    expect(verifiedFor(self)?.verified).toBe(true);
  });

  test('websub.rocks subscriber 104: discovery priority — the Link headers win over the document’s tags', async () => {
    const self = feeds.url('/blog/104');
    feeds.set('/blog/104', {
      headers: { 'content-type': 'text/xml', ...linkHeaders(self, hub.url('/blog/104/hub')) },
      body: atomWithHub(hub.url('/blog/104/hub?error=wrongtag'), self, posts('104')),
    });
    hub.onRequest = (req) =>
      req.path.includes('wrongtag') ? { status: 400, verify: false } : { status: 202, verify: true };
    try {
      const { requests } = await subscribeTo(self);
      expect(requests.map((r) => r.path)).toEqual(['/blog/104/hub']);
      expect(verifiedFor(self)?.verified).toBe(true);
    } finally {
      hub.onRequest = () => ({ status: 202, verify: true });
    }
  });
});

describe('subscribing', () => {
  test('websub.rocks subscriber 200: a different rel=self — the topic is the self URL, not the URL fetched', async () => {
    const fetched = feeds.url('/blog/200');
    const self = `${fetched}?self=other`;
    feeds.set('/blog/200', {
      headers: { 'content-type': 'application/atom+xml', ...linkHeaders(self, hub.url('/blog/200/hub')) },
      body: atomWithHub(null, null, posts('200')),
    });
    const { requests } = await subscribeTo(fetched);
    expect(requests.map((r) => r.params.get('hub.topic'))).toEqual([self]);
    expect(verifiedFor(self)?.verified).toBe(true);
  });

  test.each<[number, string, number]>([
    [201, 'temporarily', 302],
    [202, 'permanently', 301],
  ])(
    'websub.rocks subscriber %i: a topic that redirects %s (HTTP %i) — the topic is where it leads',
    async (num, _how, status) => {
      const start = feeds.url(`/blog/${num}`);
      const self = `${start}?redirect=complete`;
      feeds.set(`/blog/${num}`, { status, headers: { location: self } });
      feeds.set(`/blog/${num}?redirect=complete`, {
        headers: {
          'content-type': 'application/atom+xml',
          ...linkHeaders(self, hub.url(`/blog/${num}/hub`)),
        },
        body: atomWithHub(null, null, posts(String(num))),
      });
      const { requests } = await subscribeTo(start);
      expect(requests.map((r) => r.params.get('hub.topic'))).toEqual([self]);
      expect(verifiedFor(self)?.verified).toBe(true);
    },
  );

  test.each([
    [203, 307],
    [204, 308],
  ])(
    'websub.rocks subscriber %i: a hub that redirects with HTTP %i — the request follows it, body and all',
    async (num, status) => {
      const self = feeds.url(`/blog/${num}`);
      feeds.set(`/blog/${num}`, {
        headers: {
          'content-type': 'application/atom+xml',
          ...linkHeaders(self, hub.url(`/blog/${num}/hub?redirect=true`)),
        },
        body: atomWithHub(null, null, posts(String(num))),
      });
      hub.onRequest = (req) =>
        req.path.endsWith('?redirect=true')
          ? { status, verify: false, location: hub.url(`/blog/${num}/hub`) }
          : { status: 202, verify: true };
      try {
        const { requests } = await subscribeTo(self);
        expect(requests.map((r) => [r.path, r.params.get('hub.mode'), r.params.get('hub.topic')])).toEqual([
          [`/blog/${num}/hub?redirect=true`, 'subscribe', self],
          [`/blog/${num}/hub`, 'subscribe', self],
        ]);
        expect(verifiedFor(self)?.verified).toBe(true);
      } finally {
        hub.onRequest = () => ({ status: 202, verify: true });
      }
    },
  );

  test('websub.rocks subscriber 205: a verification request for another topic is rejected with 404', async () => {
    const self = feeds.url('/blog/205');
    feeds.set('/blog/205', {
      headers: { 'content-type': 'application/atom+xml', ...linkHeaders(self, hub.url('/blog/205/hub')) },
      body: atomWithHub(null, null, posts('205')),
    });
    hub.onRequest = () => ({ status: 202, verify: true, topic: `${self}?invalid` });
    try {
      await subscribeTo(self);
      expect(hub.verifications.at(-1)).toMatchObject({ mode: 'subscribe', status: 404 });
      expect(verifiedFor(self)).toBeUndefined();
      const feedId = (await h.ctx.store.feedByUrl(self))!._id;
      expect((await h.ctx.store.webSubsOfFeed(feedId))[0]!.state).toBe('subscribing');
    } finally {
      hub.onRequest = () => ({ status: 202, verify: true });
    }
  });
});

describe('distribution', () => {
  const titles = async (feedId: number) =>
    ((await h.get(ann, `/feeds/v2/feeds/${feedId}/entries.json`)).json() as Array<{ title: string }>).map(
      (e) => e.title,
    );
  const subscribed = new Map<number, { self: string; feedId: number }>();
  beforeAll(async () => {
    for (const num of [300, 301, 302]) {
      const self = feeds.url(`/blog/${num}`);
      feeds.set(`/blog/${num}`, {
        headers: {
          'content-type': 'application/atom+xml',
          ...linkHeaders(self, hub.url(`/blog/${num}/hub`)),
        },
        body: atomWithHub(null, null, posts(String(num))),
      });
      const { sub } = await subscribeTo(self);
      subscribed.set(num, { self, feedId: sub.feed_id });
    }
  });
  // websub.rocks's publish: one new post in the document, delivered with websub.rocks's headers.
  const newPost = (num: number) =>
    atomWithHub(null, null, [{ id: `${num}-q1`, title: `New quote ${num}` }, ...posts(String(num))]);

  test('websub.rocks subscriber 300: a delivery signed with the secret is answered 2xx and stored', async () => {
    const { self, feedId } = subscribed.get(300)!;
    const sub = verifiedFor(self)!;
    expect(sub.secret).toBeDefined();
    const res = await hub.deliver(sub.callback, newPost(300), { sign: 'sha256' });
    expect(res.statusCode).toBeGreaterThanOrEqual(200);
    expect(res.statusCode).toBeLessThan(300);
    expect(await titles(feedId)).toEqual(['New quote 300', 'Quote 300']);
  });

  test('websub.rocks subscriber 301: a delivery with an invalid signature is not processed (acknowledged with 2xx, which websub.rocks accepts)', async () => {
    const { self, feedId } = subscribed.get(301)!;
    const res = await hub.deliver(verifiedFor(self)!.callback, newPost(301), { sign: 'wrong' });
    expect(res.statusCode).toBe(202);
    expect(await titles(feedId)).toEqual(['Quote 301']);
  });

  test('websub.rocks subscriber 302: a delivery without a signature to a subscription with a secret is not processed (acknowledged with 2xx by our rule; websub.rocks would want a non-2xx)', async () => {
    const { self, feedId } = subscribed.get(302)!;
    const res = await hub.deliver(verifiedFor(self)!.callback, newPost(302), { sign: 'none' });
    expect(res.statusCode).toBe(202);
    expect(await titles(feedId)).toEqual(['Quote 302']);
  });
});
