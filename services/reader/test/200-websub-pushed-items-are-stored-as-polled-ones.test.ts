// WebSub subscriptions of the reader, against a fake hub on 127.0.0.1 (test/fake-hub.ts): a feed that
// names a hub is subscribed there once for all its readers, with an unguessable callback on PUBLIC_URL
// and a secret; the hub's intent verification is answered only for what the reader asked; a signed
// delivery is stored as a poll would store it (same entries, same dedupe) and is unread at once;
// renewal, the polling fallback, the last reader leaving, a new hub and a denial.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { enqueueDueWebSub } from '../src/domain/websub.js';
import { atomWithHub, startFakeHub, type FakeHub } from './fake-hub.js';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { PUBLIC_URL, startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let hub: FakeHub;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  h = await startReader();
  feeds = await startFeedServer({ fixtures: false });
  hub = await startFakeHub(() => h.url);
  ann = h.identity.addUser('ann');
  bob = h.identity.addUser('bob');
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await feeds?.close();
  await hub?.close();
});

/** Serves an Atom feed at `path` naming the hub in its Link headers (and nothing in the document). */
function serveWithLinkHeaders(
  path: string,
  entries: Array<{ id: string; title: string }>,
  hubUrl = hub.url(),
) {
  feeds.set(path, () => ({
    headers: {
      'content-type': 'application/atom+xml',
      link: `<${hubUrl}>; rel="hub", <${feeds.url(path)}>; rel="self"`,
    },
    body: atomWithHub(null, null, entries),
  }));
}

async function settle() {
  await h.idle();
  await hub.settled();
}

const unread = async (user: TestUser): Promise<number[]> =>
  (await h.get(user, '/feeds/v2/unread_entries.json')).json();
const titlesOf = async (user: TestUser, feedId: number): Promise<string[]> =>
  ((await h.get(user, `/feeds/v2/feeds/${feedId}/entries.json`)).json() as Array<{ title: string }>).map(
    (e) => e.title,
  );
const recordsOf = (feedId: number) => h.ctx.store.webSubsOfFeed(feedId);
const callbackOf = (topic: string) =>
  hub
    .requestsOf('subscribe')
    .filter((r) => r.params.get('hub.topic') === topic)
    .pop()!
    .params.get('hub.callback')!;

describe('subscribing at the hub a feed names', () => {
  let feedId: number;
  const path = '/push.xml';
  beforeAll(async () => {
    serveWithLinkHeaders(path, [{ id: 'p1', title: 'First' }]);
    feedId = (await h.subscribe(ann, feeds.url(path))).feed_id;
    await settle();
  });

  test('the hub gets one subscribe request: topic = self, a callback on PUBLIC_URL, a secret, a lease', () => {
    const reqs = hub.requestsOf('subscribe').filter((r) => r.params.get('hub.topic') === feeds.url(path));
    expect(reqs).toHaveLength(1);
    const p = reqs[0]!.params;
    expect(reqs[0]!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(p.get('hub.callback')).toMatch(new RegExp(`^${PUBLIC_URL}/feeds/v2/websub/[A-Za-z0-9_-]{43}$`));
    expect(p.get('hub.secret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get('hub.lease_seconds')).toBe('864000');
  });

  test('the hub verifies intent and gets its challenge back: the subscription is active', async () => {
    expect(hub.subscriptions.get(callbackOf(feeds.url(path)))?.verified).toBe(true);
    const [record] = await recordsOf(feedId);
    expect(record).toMatchObject({ state: 'subscribed', leaseSeconds: 86_400, pending: null });
  });

  test('a second reader of the feed shares the one hub subscription', async () => {
    await h.subscribe(bob, feeds.url(path));
    await settle();
    expect(
      hub.requestsOf('subscribe').filter((r) => r.params.get('hub.topic') === feeds.url(path)),
    ).toHaveLength(1);
    expect(await recordsOf(feedId)).toHaveLength(1);
  });

  test('each subscription has its own callback and secret', async () => {
    serveWithLinkHeaders('/other.xml', [{ id: 'o1', title: 'Other' }]);
    await h.subscribe(ann, feeds.url('/other.xml'));
    await settle();
    const a = hub.requestsOf('subscribe').find((r) => r.params.get('hub.topic') === feeds.url(path))!.params;
    const b = hub
      .requestsOf('subscribe')
      .find((r) => r.params.get('hub.topic') === feeds.url('/other.xml'))!.params;
    expect(a.get('hub.callback')).not.toBe(b.get('hub.callback'));
    expect(a.get('hub.secret')).not.toBe(b.get('hub.secret'));
  });

  test('a signed delivery is 2xx and its new item is unread for every reader at once', async () => {
    const body = atomWithHub(null, null, [
      { id: 'p2', title: 'Pushed' },
      { id: 'p1', title: 'First' },
    ]);
    const [res] = await hub.publish(feeds.url(path), body);
    expect(res!.statusCode).toBe(204);
    expect(await titlesOf(ann, feedId)).toEqual(['Pushed', 'First']);
    const entries = (await h.get(ann, `/feeds/v2/feeds/${feedId}/entries.json`)).json() as Array<{
      id: number;
    }>;
    expect(await unread(ann)).toContain(entries[0]!.id);
    expect(await unread(bob)).toContain(entries[0]!.id);
  });

  test('the same item polled later is the same entry (one dedupe for push and poll)', async () => {
    serveWithLinkHeaders(path, [
      { id: 'p2', title: 'Pushed' },
      { id: 'p1', title: 'First' },
    ]);
    await h.refresh(feedId);
    expect(await titlesOf(ann, feedId)).toEqual(['Pushed', 'First']);
  });

  test.each(['sha1', 'sha384', 'sha512'] as const)(
    'a delivery signed with %s is accepted',
    async (method) => {
      const body = atomWithHub(null, null, [{ id: `s-${method}`, title: `Signed ${method}` }]);
      const res = await hub.deliver(callbackOf(feeds.url(path)), body, { sign: method });
      expect(res.statusCode).toBe(204);
      expect(await titlesOf(ann, feedId)).toContain(`Signed ${method}`);
    },
  );

  test('while the hub pushes, the feed is polled at the slow end of its interval', async () => {
    await h.refresh(feedId);
    const feed = (await h.ctx.store.feedById(feedId))!;
    const minutes = (feed.nextCheckAt.getTime() - h.clock.nowMs()) / 60_000;
    // READER_POLL_MAX_MINUTES (1440) with the scheduler's jitter (docs/api/reader.md "Polling").
    expect(minutes).toBeGreaterThan(1440 * 0.8);
  });
});

describe('a JSON Feed names its hub in `hubs`', () => {
  const jsonFeed = (self: string, items: Array<{ id: string; title: string }>) =>
    JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Jason',
      feed_url: self,
      hubs: [{ type: 'WebSub', url: hub.url('/json-hub') }],
      items: items.map((i) => ({ id: i.id, title: i.title, content_text: i.title, url: `${self}#${i.id}` })),
    });

  test('the reader subscribes with feed_url as topic and stores a pushed JSON Feed', async () => {
    const self = feeds.url('/jason.json?canonical');
    feeds.set('/jason.json', {
      headers: { 'content-type': 'application/feed+json' },
      body: jsonFeed(self, [{ id: 'j1', title: 'Jay one' }]),
    });
    const { feed_id: feedId } = await h.subscribe(ann, feeds.url('/jason.json'));
    await settle();
    const reqs = hub.requestsOf('subscribe').filter((r) => r.path === '/json-hub');
    expect(reqs.map((r) => r.params.get('hub.topic'))).toEqual([self]);
    const res = await hub.publish(
      self,
      jsonFeed(self, [
        { id: 'j2', title: 'Jay two' },
        { id: 'j1', title: 'Jay one' },
      ]),
      'application/feed+json',
    );
    expect(res.map((r) => r.statusCode)).toEqual([204]);
    expect(await titlesOf(ann, feedId)).toEqual(['Jay two', 'Jay one']);
  });
});

describe('deliveries that change nothing', () => {
  let feedId: number;
  let callback: string;
  const path = '/guarded.xml';
  beforeAll(async () => {
    serveWithLinkHeaders(path, [{ id: 'g1', title: 'Guarded' }]);
    feedId = (await h.subscribe(ann, feeds.url(path))).feed_id;
    await settle();
    callback = callbackOf(feeds.url(path));
  });
  const evil = atomWithHub(null, null, [{ id: 'evil', title: 'Forged' }]);

  test('a wrong signature is acknowledged with 2xx and nothing is stored', async () => {
    const res = await hub.deliver(callback, evil, { sign: 'wrong' });
    expect(res.statusCode).toBeGreaterThanOrEqual(200);
    expect(res.statusCode).toBeLessThan(300);
    expect(await titlesOf(ann, feedId)).toEqual(['Guarded']);
  });

  test('a missing signature is acknowledged with 2xx and nothing is stored', async () => {
    const res = await hub.deliver(callback, evil, { sign: 'none' });
    expect(res.statusCode).toBe(202);
    expect(await titlesOf(ann, feedId)).toEqual(['Guarded']);
  });

  test('a signature made with another subscription’s secret is wrong', async () => {
    const res = await hub.deliver(callback, evil, { secret: 'not-this-subscriptions-secret' });
    expect(res.statusCode).toBe(202);
    expect(await titlesOf(ann, feedId)).toEqual(['Guarded']);
  });

  test('a body over the limit is 413 and nothing is stored', async () => {
    const huge = atomWithHub(null, null, [{ id: 'big', title: 'x'.repeat(4 * 1024 * 1024) }]);
    const res = await hub.deliver(callback, huge);
    expect(res.statusCode).toBe(413);
    expect(await titlesOf(ann, feedId)).toEqual(['Guarded']);
  });

  test('a signed body that is no feed is acknowledged and stores nothing', async () => {
    const res = await hub.deliver(callback, 'hello', { contentType: 'text/plain' });
    expect(res.statusCode).toBe(202);
    expect(await titlesOf(ann, feedId)).toEqual(['Guarded']);
  });

  test('a delivery to an unknown callback is 410 Gone', async () => {
    const res = await hub.deliver(`${PUBLIC_URL}/feeds/v2/websub/${'A'.repeat(43)}`, evil);
    expect(res.statusCode).toBe(410);
  });
});

describe('intent verification answers only what the reader asked', () => {
  let callback: string;
  const path = '/verify.xml';
  beforeAll(async () => {
    serveWithLinkHeaders(path, [{ id: 'v1', title: 'Verify' }]);
    await h.subscribe(ann, feeds.url(path));
    await settle();
    callback = callbackOf(feeds.url(path));
  });

  test('an unknown callback is 404', async () => {
    const res = await hub.verify(`${PUBLIC_URL}/feeds/v2/websub/${'B'.repeat(43)}`, {
      'hub.mode': 'subscribe',
      'hub.topic': feeds.url(path),
      'hub.challenge': 'abc',
      'hub.lease_seconds': '100',
    });
    expect(res.statusCode).toBe(404);
  });

  test('a subscribe verification nobody asked for (no request pending) is 404', async () => {
    const res = await hub.verify(callback, {
      'hub.mode': 'subscribe',
      'hub.topic': feeds.url(path),
      'hub.challenge': 'abc',
      'hub.lease_seconds': '100',
    });
    expect(res.statusCode).toBe(404);
  });

  test('an unsubscribe verification the reader never asked for is 404 and the subscription stays', async () => {
    const res = await hub.verify(callback, {
      'hub.mode': 'unsubscribe',
      'hub.topic': feeds.url(path),
      'hub.challenge': 'abc',
    });
    expect(res.statusCode).toBe(404);
    const feedId = (await h.ctx.store.feedByUrl(feeds.url(path)))!._id;
    expect((await recordsOf(feedId))[0]!.state).toBe('subscribed');
  });

  test('another topic is 404', async () => {
    const res = await hub.verify(callback, {
      'hub.mode': 'subscribe',
      'hub.topic': feeds.url('/somewhere-else.xml'),
      'hub.challenge': 'abc',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('renewal, the last reader leaving, a new hub, a denial', () => {
  test('the reader renews at the same callback before the granted lease ends', async () => {
    hub.leaseSeconds = 1000;
    serveWithLinkHeaders('/renew.xml', [{ id: 'r1', title: 'Renew' }]);
    const feedId = (await h.subscribe(ann, feeds.url('/renew.xml'))).feed_id;
    await settle();
    hub.leaseSeconds = 86_400;
    const callback = callbackOf(feeds.url('/renew.xml'));
    const before = hub.requestsOf('subscribe').length;
    h.clock.advance(700_000);
    await enqueueDueWebSub(h.ctx);
    await settle();
    expect(hub.requestsOf('subscribe').length).toBe(before);
    h.clock.advance(150_000); // 850 s of 1000: past the renewal point, before the end
    await enqueueDueWebSub(h.ctx);
    await settle();
    const renewal = hub.requestsOf('subscribe').slice(before);
    expect(renewal).toHaveLength(1);
    expect(renewal[0]!.params.get('hub.callback')).toBe(callback);
    const [record] = await recordsOf(feedId);
    expect(record).toMatchObject({ state: 'subscribed', leaseSeconds: 86_400 });
  });

  test('when the last reader unsubscribes, the reader unsubscribes at the hub and forgets the callback', async () => {
    serveWithLinkHeaders('/leave.xml', [{ id: 'l1', title: 'Leave' }]);
    const annSub = await h.subscribe(ann, feeds.url('/leave.xml'));
    const bobSub = await h.subscribe(bob, feeds.url('/leave.xml'));
    await settle();
    const callback = callbackOf(feeds.url('/leave.xml'));
    await h.req(ann, 'DELETE', `/feeds/v2/subscriptions/${annSub.id}.json`);
    await settle();
    expect(
      hub.requestsOf('unsubscribe').filter((r) => r.params.get('hub.callback') === callback),
    ).toHaveLength(0);
    await h.req(bob, 'DELETE', `/feeds/v2/subscriptions/${bobSub.id}.json`);
    await settle();
    const unsub = hub.requestsOf('unsubscribe').filter((r) => r.params.get('hub.callback') === callback);
    expect(unsub).toHaveLength(1);
    expect(unsub[0]!.params.get('hub.topic')).toBe(feeds.url('/leave.xml'));
    expect(hub.verifications.at(-1)).toMatchObject({ mode: 'unsubscribe', status: 200 });
    expect(hub.subscriptions.has(callback)).toBe(false);
    expect(await recordsOf(annSub.feed_id)).toEqual([]);
    const res = await hub.deliver(callback, atomWithHub(null, null, [{ id: 'late', title: 'Late' }]), {
      secret: 'whatever',
    });
    expect(res.statusCode).toBe(410);
  });

  test('when the feed names another hub, the reader subscribes there and unsubscribes at the old one', async () => {
    const second = await startFakeHub(() => h.url);
    try {
      serveWithLinkHeaders('/moving.xml', [{ id: 'm1', title: 'Moving' }]);
      const { feed_id: feedId } = await h.subscribe(ann, feeds.url('/moving.xml'));
      await settle();
      const oldCallback = callbackOf(feeds.url('/moving.xml'));
      serveWithLinkHeaders('/moving.xml', [{ id: 'm1', title: 'Moving' }], second.url());
      await h.refresh(feedId);
      await settle();
      await second.settled();
      await settle();
      const fresh = second.requestsOf('subscribe');
      expect(fresh).toHaveLength(1);
      expect(fresh[0]!.params.get('hub.callback')).not.toBe(oldCallback);
      expect(
        hub.requestsOf('unsubscribe').filter((r) => r.params.get('hub.callback') === oldCallback),
      ).toHaveLength(1);
      const records = await recordsOf(feedId);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ hub: second.url(), state: 'subscribed' });
    } finally {
      await second.close();
    }
  });

  test('a hub’s denial is recorded, the hub is not asked again, and the feed is polled as before', async () => {
    serveWithLinkHeaders('/denied.xml', [{ id: 'd1', title: 'Denied' }]);
    hub.onRequest = () => ({ status: 202, verify: false });
    try {
      const { feed_id: feedId } = await h.subscribe(ann, feeds.url('/denied.xml'));
      await settle();
      const callback = callbackOf(feeds.url('/denied.xml'));
      const res = await hub.verify(callback, {
        'hub.mode': 'denied',
        'hub.topic': feeds.url('/denied.xml'),
        'hub.reason': 'no room',
      });
      expect(res.statusCode).toBe(200);
      const [record] = await recordsOf(feedId);
      expect(record).toMatchObject({ state: 'denied', lastError: 'denied by the hub: no room' });
      const asked = hub.requestsOf('subscribe').length;
      await h.refresh(feedId);
      h.clock.advance(2 * 3600_000);
      await enqueueDueWebSub(h.ctx);
      await settle();
      expect(hub.requestsOf('subscribe').length).toBe(asked);
      const feed = (await h.ctx.store.feedById(feedId))!;
      expect((feed.nextCheckAt.getTime() - h.clock.nowMs()) / 60_000).toBeLessThan(1440 * 0.8);
    } finally {
      hub.onRequest = () => ({ status: 202, verify: true });
    }
  });
});
