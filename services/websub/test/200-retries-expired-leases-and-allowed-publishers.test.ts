// With the hub's clock in the test's hand: a delivery answered 5xx is retried after the backoff until
// it succeeds; a subscription whose lease ended gets nothing and is dropped; an external publisher on
// an allowed host pings the hub with hub.mode=publish and its subscribers get the topic's document
// with the topic's own Content-Type (websub.rocks hub 105: a plain-text topic).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { TestClock } from '@murmur/testing';
import { startHarness, until, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
const clock = new TestClock();

beforeAll(async () => {
  h = await startHarness({ clock, env: { WEBSUB_PUBLISHER_HOSTS: '127.0.0.1' } });
  ada = await h.createUser('ada');
}, 120_000);
afterAll(() => h?.stop());

it('retries a delivery answered 500 and 503 after the backoff, until the subscriber takes it', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  await h.subscribe(topic, '/cb/retry');
  h.callbacks.statuses.push(500, 503);
  await h.newPost(ada, 'Retried', '<p>again</p>');
  await until(() => (h.callbacks.deliveriesTo('/cb/retry').length >= 1 ? true : undefined));
  // Backoff: WEBSUB_RETRY_BASE_MS 1 s, then 2 s (at most); the clock moves, nobody waits.
  for (let i = 0; i < 40 && h.callbacks.deliveriesTo('/cb/retry').length < 3; i++) {
    clock.advance(2_500);
    await new Promise((r) => setTimeout(r, 100));
  }
  const all = h.callbacks.deliveriesTo('/cb/retry');
  expect(all).toHaveLength(3);
  expect(new Set(all.map((d) => d.body.toString())).size).toBe(1);
  expect(all[2]!.body.toString()).toContain('Retried');
}, 120_000);

it('an expired lease gets no delivery and the subscription is dropped', async () => {
  const topic = `${h.url}/sites/ada/feed.xml`;
  await h.subscribe(topic, '/cb/short', { 'hub.lease_seconds': '60' });
  await h.subscribe(topic, '/cb/long', { 'hub.lease_seconds': '7200' });
  clock.advance(120_000);
  await h.newPost(ada, 'After the lease', '<p>late</p>');
  await until(() =>
    h.callbacks.deliveriesTo('/cb/long').find((d) => d.body.toString().includes('After the lease')),
  );
  expect(h.callbacks.deliveriesTo('/cb/short')).toHaveLength(0);
  expect(await h.ctx.store.subscription(topic, `${h.callbacks.url}/cb/short`)).toBeNull();
}, 120_000);

it('websub.rocks hub 105: an allowed publisher pings, and a plain-text topic is delivered as text/plain', async () => {
  const topic = `${h.callbacks.url}/topic/105`;
  h.callbacks.topics.set('/topic/105', { type: 'text/plain', body: 'first version' });
  await h.subscribe(topic, '/cb/105');
  h.callbacks.topics.set('/topic/105', { type: 'text/plain', body: 'second version' });
  const res = await h.hub({ 'hub.mode': 'publish', 'hub.topic': topic });
  expect(res.statusCode).toBe(202);
  const d = await until(() => h.callbacks.deliveriesTo('/cb/105')[0]);
  expect(d.body.toString()).toBe('second version');
  expect(d.headers['content-type']).toBe('text/plain');
  expect(d.headers.link).toBe(`<${h.hubUrl}>; rel="hub", <${topic}>; rel="self"`);
}, 120_000);

it('websub.rocks hub 106: an allowed publisher’s JSON topic keeps application/json (hub.url accepted too)', async () => {
  const topic = `${h.callbacks.url}/topic/106`;
  h.callbacks.topics.set('/topic/106', { type: 'application/json', body: '{"v":1}' });
  await h.subscribe(topic, '/cb/106');
  h.callbacks.topics.set('/topic/106', { type: 'application/json', body: '{"v":2}' });
  expect((await h.hub({ 'hub.mode': 'publish', 'hub.url': topic })).statusCode).toBe(202);
  const d = await until(() => h.callbacks.deliveriesTo('/cb/106')[0]);
  expect(JSON.parse(d.body.toString())).toEqual({ v: 2 });
  expect(d.headers['content-type']).toBe('application/json');
}, 120_000);
