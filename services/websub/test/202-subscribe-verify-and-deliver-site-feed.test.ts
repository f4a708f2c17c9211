// Subscribing to a site's feed.xml through the gateway: 202 at once, then the hub asks the callback
// (hub.mode, hub.topic, hub.challenge, hub.lease_seconds) and, once confirmed, delivers each new
// version of the feed with its Content-Type and the hub and self links, without a signature.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, until, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
}, 120_000);
afterAll(() => h?.stop());

it('websub.rocks hub 100: a typical subscriber request is verified and gets the new feed with rel=hub and rel=self', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  const res = await h.hub({
    'hub.mode': 'subscribe',
    'hub.topic': topic,
    'hub.callback': `${h.callbacks.url}/cb/100`,
  });
  expect(res.statusCode).toBe(202);
  const verification = await until(() => h.callbacks.verifications.find((v) => v.path === '/cb/100'));
  expect(verification).toMatchObject({ mode: 'subscribe', topic, leaseSeconds: '3600' });
  expect(verification.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  await until(async () =>
    (await h.ctx.store.subscription(topic, `${h.callbacks.url}/cb/100`)) ? true : undefined,
  );

  await h.newPost(ada, 'Hello hub', '<p>First pushed post</p>');
  const delivery = await until(() => h.callbacks.deliveriesTo('/cb/100')[0]);
  const feed = await h.get('/sites/ada/feed.xml');
  expect(delivery.body.toString()).toBe(feed.body);
  expect(delivery.body.toString()).toContain('Hello hub');
  expect(delivery.headers['content-type']).toBe(feed.headers['content-type']);
  expect(delivery.headers.link).toBe(`<${h.hubUrl}>; rel="hub", <${topic}>; rel="self"`);
  expect(delivery.headers['x-hub-signature']).toBeUndefined();
}, 120_000);

it('websub.rocks hub 101: a subscription with a secret gets deliveries signed sha256=HMAC(secret, body)', async () => {
  const topic = `${h.url}/sites/ada/feed.json`;
  const secret = 'a-secret-of-the-subscriber';
  await h.subscribe(topic, '/cb/101', { 'hub.secret': secret });
  await h.newPost(ada, 'Signed', '<p>For the secret holder</p>');
  const delivery = await until(() =>
    h.callbacks.deliveriesTo('/cb/101').find((d) => d.body.toString().includes('Signed')),
  );
  const expected = createHmac('sha256', secret).update(delivery.body).digest('hex');
  expect(delivery.headers['x-hub-signature']).toBe(`sha256=${expected}`);
  // websub.rocks hub 106 (a JSON topic): the JSON Feed arrives with its own Content-Type.
  expect(delivery.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(delivery.body.toString()).feed_url).toBe(topic);
}, 120_000);

it('websub.rocks hub 102: parameters the hub does not know are ignored', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  const res = await h.hub({
    'hub.mode': 'subscribe',
    'hub.topic': topic,
    'hub.callback': `${h.callbacks.url}/cb/102`,
    foo: 'bar',
    'hub.foo': 'hub.bar',
  });
  expect(res.statusCode).toBe(202);
  await until(async () =>
    (await h.ctx.store.subscription(topic, `${h.callbacks.url}/cb/102`)) ? true : undefined,
  );
}, 120_000);

it('websub.rocks hub 103: re-subscribing before the lease ends renews the same subscription', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  const callback = `${h.callbacks.url}/cb/103`;
  await h.subscribe(topic, '/cb/103', { 'hub.lease_seconds': '600' });
  const first = (await h.ctx.store.subscription(topic, callback))!;
  await h.hub({
    'hub.mode': 'subscribe',
    'hub.topic': topic,
    'hub.callback': callback,
    'hub.lease_seconds': '7200',
  });
  const renewed = await until(async () => {
    const s = await h.ctx.store.subscription(topic, callback);
    return s && s.leaseSeconds === 7200 ? s : undefined;
  });
  expect(renewed._id).toBe(first._id);
  expect(renewed.createdAt).toEqual(first.createdAt);
  expect(renewed.expiresAt.getTime()).toBeGreaterThan(first.expiresAt.getTime());
  expect(await h.ctx.store.store.collection('subscriptions').countDocuments({ callback })).toBe(1);
}, 120_000);

it('websub.rocks hub 104: after an unsubscription is confirmed no more content is delivered', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  const callback = `${h.callbacks.url}/cb/104`;
  await h.subscribe(topic, '/cb/104');
  const res = await h.hub({ 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': callback });
  expect(res.statusCode).toBe(202);
  const v = await until(() =>
    h.callbacks.verifications.find((x) => x.path === '/cb/104' && x.mode === 'unsubscribe'),
  );
  expect(v.leaseSeconds).toBeNull();
  await until(async () => ((await h.ctx.store.subscription(topic, callback)) ? undefined : true));
  // A control subscriber proves the delivery happened.
  await h.subscribe(topic, '/cb/104-control');
  await h.newPost(ada, 'After unsubscribing', '<p>not for 104</p>');
  await until(() =>
    h.callbacks
      .deliveriesTo('/cb/104-control')
      .find((d) => d.body.toString().includes('After unsubscribing')),
  );
  expect(h.callbacks.deliveriesTo('/cb/104')).toHaveLength(0);
}, 120_000);

it('delivers the timelines of the author and of a follower, and edits and deletions as new versions', async () => {
  const bob = await h.createUser('bob');
  const follow = await h.get('/feeds/bob.json');
  expect(follow.statusCode).toBe(200);
  const res = await sendOverWireJson(h, '/users/follow', bob.token, { username: 'ada' });
  expect(res).toBe(200);
  await h.subscribe(`${h.url}/feeds/ada.json`, '/cb/timeline-ada');
  await h.subscribe(`${h.url}/feeds/bob.json`, '/cb/timeline-bob');
  const id = await h.newPost(ada, 'Timeline news', '<p>fresh</p>');
  for (const path of ['/cb/timeline-ada', '/cb/timeline-bob']) {
    const d = await until(() =>
      h.callbacks.deliveriesTo(path).find((x) => x.body.toString().includes('Timeline news')),
    );
    expect(d.headers['content-type']).toBe('application/json; charset=utf-8');
  }
  await h.editPost(ada, id, 'Timeline news, edited', '<p>fresher</p>');
  await until(() =>
    h.callbacks
      .deliveriesTo('/cb/timeline-bob')
      .find((x) => x.body.toString().includes('Timeline news, edited')),
  );
  await h.deletePost(ada, id);
  await until(() => {
    const last = h.callbacks.deliveriesTo('/cb/timeline-bob').at(-1);
    return last && !last.body.toString().includes('Timeline news') ? last : undefined;
  });
}, 180_000);

async function sendOverWireJson(hh: Harness, path: string, token: string, body: object): Promise<number> {
  const { sendOverWire } = await import('@murmur/testing');
  const res = await sendOverWire(hh.url, {
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  return res.statusCode;
}

it('delivers a user’s webmentions feed when a webmention to their site is verified', async () => {
  const topic = `${h.url}/feeds/ada/webmentions.json`;
  await h.subscribe(topic, '/cb/webmentions');
  const { webmention } = await import('@murmur/contracts');
  await h.bus.publish(webmention.mentionVerified, {
    id: 7,
    source: 'https://carol.example/r/1',
    target: `${h.url}/sites/ada/`,
    targetUserId: ada.id,
    type: 'reply',
    author: { name: 'Carol', url: 'https://carol.example/' },
    contentHtml: '<p>Nice post</p>',
    contentText: 'Nice post',
    published: null,
    received: '2026-12-02T10:00:00+00:00',
    isNew: true,
  });
  const d = await until(() =>
    h.callbacks.deliveriesTo('/cb/webmentions').find((x) => x.body.toString().includes('Nice post')),
  );
  expect(d.headers.link).toBe(`<${h.hubUrl}>; rel="hub", <${topic}>; rel="self"`);
}, 120_000);
