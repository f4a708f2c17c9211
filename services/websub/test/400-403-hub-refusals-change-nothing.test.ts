// Bad hub requests get a one-line text reason and change nothing; a callback that does not echo the
// challenge is not subscribed; the granted lease is the default, or the request clamped to its bounds.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, until, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
}, 120_000);
afterAll(() => h?.stop());

const subscriptions = () => h.ctx.store.store.collection('subscriptions').countDocuments({});

it.each([
  [{ 'hub.topic': 'T', 'hub.callback': 'C' }, 'hub.mode is required'],
  [
    { 'hub.mode': 'watch', 'hub.topic': 'T', 'hub.callback': 'C' },
    'hub.mode must be subscribe, unsubscribe or publish',
  ],
  [{ 'hub.mode': 'subscribe', 'hub.topic': 'T' }, 'hub.callback is required'],
  [
    { 'hub.mode': 'subscribe', 'hub.topic': 'T', 'hub.callback': 'ftp://x.example/' },
    'hub.callback must be an http or https URL',
  ],
  [
    { 'hub.mode': 'subscribe', 'hub.topic': 'T', 'hub.callback': 'http://127.0.0.2/cb' },
    'hub.callback must not be a loopback, private or link-local address',
  ],
  [{ 'hub.mode': 'subscribe', 'hub.callback': 'C' }, 'hub.topic is required'],
])('400 with a reason for %j', async (params, reason) => {
  const p = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      v === 'T' ? `${h.url}/sites/ada/feed.xml` : v === 'C' ? `${h.callbacks.url}/cb/x` : v,
    ]),
  );
  const res = await h.hub(p);
  expect(res.statusCode).toBe(400);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  expect(res.body).toBe(reason);
  expect(await subscriptions()).toBe(0);
});

it('400 for a topic that is no feed of this Murmur, and for the feed of a user who does not exist', async () => {
  for (const topic of [
    'https://elsewhere.example/feed.xml',
    `${h.url}/account/me`,
    `${h.url}/feeds/nobody.json`,
  ]) {
    const res = await h.hub({
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.callback': `${h.callbacks.url}/cb/u`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^hub\.topic (is not a feed this hub serves|does not exist)/);
  }
  expect(h.callbacks.verifications.filter((v) => v.path === '/cb/u')).toHaveLength(0);
});

it('400 for a secret of 200 bytes or more and for a lease that is no positive integer', async () => {
  const base = {
    'hub.mode': 'subscribe',
    'hub.topic': `${h.url}/sites/ada/feed.xml`,
    'hub.callback': `${h.callbacks.url}/cb/s`,
  };
  const secret = await h.hub({ ...base, 'hub.secret': 'x'.repeat(200) });
  expect(secret.statusCode).toBe(400);
  expect(secret.body).toBe('hub.secret must be shorter than 200 bytes');
  for (const lease of ['-5', 'soon', '0']) {
    const res = await h.hub({ ...base, 'hub.lease_seconds': lease });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('hub.lease_seconds must be a positive integer');
  }
  expect(await subscriptions()).toBe(0);
});

it('grants the default lease, and a requested lease clamped to the minimum and maximum', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  const cases: Array<[string | undefined, string]> = [
    [undefined, '3600'],
    ['10', '60'],
    ['900', '900'],
    ['999999999', '86400'],
  ];
  for (const [asked, granted] of cases) {
    const path = `/cb/lease-${asked ?? 'none'}`;
    await h.subscribe(topic, path, asked === undefined ? {} : { 'hub.lease_seconds': asked });
    const v = h.callbacks.verifications.find((x) => x.path === path)!;
    expect(v.leaseSeconds).toBe(granted);
    const s = (await h.ctx.store.subscription(topic, `${h.callbacks.url}${path}`))!;
    expect(s.leaseSeconds).toBe(Number(granted));
  }
});

it('a callback that answers another body than the challenge, or an error, is not subscribed', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  h.callbacks.verifyWith = 'wrong';
  expect(
    (
      await h.hub({
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.callback': `${h.callbacks.url}/cb/wrong`,
      })
    ).statusCode,
  ).toBe(202);
  await until(() => h.callbacks.verifications.find((v) => v.path === '/cb/wrong'));
  h.callbacks.verifyWith = 404;
  expect(
    (
      await h.hub({
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.callback': `${h.callbacks.url}/cb/404`,
      })
    ).statusCode,
  ).toBe(202);
  await until(() => h.callbacks.verifications.find((v) => v.path === '/cb/404'));
  h.callbacks.verifyWith = 'echo';
  await h.subscribe(topic, '/cb/control');
  await h.newPost(ada, 'Only for the verified', '<p>x</p>');
  await until(() => h.callbacks.deliveriesTo('/cb/control')[0]);
  expect(await h.ctx.store.subscription(topic, `${h.callbacks.url}/cb/wrong`)).toBeNull();
  expect(await h.ctx.store.subscription(topic, `${h.callbacks.url}/cb/404`)).toBeNull();
  expect(h.callbacks.deliveriesTo('/cb/wrong')).toHaveLength(0);
  expect(h.callbacks.deliveriesTo('/cb/404')).toHaveLength(0);
}, 120_000);

it('403 for hub.mode=publish of a topic on a host the operator does not allow', async () => {
  const res = await h.hub({ 'hub.mode': 'publish', 'hub.topic': 'https://blog.elsewhere.example/feed.xml' });
  expect(res.statusCode).toBe(403);
  expect(res.body).toBe(
    "hub.mode=publish is accepted only for Murmur's own feeds and topics on hosts the operator allows; blog.elsewhere.example is not one",
  );
});

it('an unsubscription of a topic the hub no longer serves is still verified and ends the subscription', async () => {
  const topic = 'https://gone.example/feed.xml';
  const callback = `${h.callbacks.url}/cb/gone`;
  await h.ctx.store.upsertSubscription(
    { topic, callback, callbackHost: h.callbacks.host, leaseSeconds: 3600 },
    new Date(),
  );
  const refused = await h.hub({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback });
  expect(refused.statusCode).toBe(400);
  const res = await h.hub({ 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': callback });
  expect(res.statusCode).toBe(202);
  await until(() => h.callbacks.verifications.find((v) => v.path === '/cb/gone' && v.mode === 'unsubscribe'));
  await until(async () => ((await h.ctx.store.subscription(topic, callback)) ? undefined : true));
});
