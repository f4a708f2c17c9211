import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { publishing, type EventEnvelope } from '@murmur/contracts';
import { eventually } from '@murmur/testing';
import { notifyOfPost } from '../src/domain/fanout.js';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

function envelope(ada: { id: number }, bob: { id: number }): EventEnvelope<publishing.PublicPost> {
  return {
    id: randomUUID(),
    type: publishing.postPublished.type,
    occurredAt: h.clock.now().toISOString(),
    producer: 'publishing',
    data: {
      id: 7,
      userId: bob.id,
      siteId: 1,
      url: 'https://example.test/7',
      title: '',
      contentHtml: '',
      contentText: 'hello @ada',
      publishedAt: '2030-01-01T08:30:00+00:00',
      photos: [],
      mentions: [{ userId: ada.id, username: 'ada' }],
      categories: [],
    },
  };
}

test('the same event handled twice (redelivery) sends one notification per device', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  await h.register(ada, devHex(1));
  await h.register(ada, devHex(2));
  const e = envelope(ada, bob);
  await notifyOfPost(h.ctx, e);
  await notifyOfPost(h.ctx, e);
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  await h.settle();
  await notifyOfPost(h.ctx, e);
  await h.settle();
  expect(h.apns.requests).toHaveLength(2);
});

test('handled again after a crash between queueing and marking: still one notification per device', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  h.apns.requests.length = 0;
  const e = envelope(ada, bob);
  await notifyOfPost(h.ctx, e);
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  await h.settle();
  // As if the process died before the fan-out was marked: the marker is gone, the jobs are done.
  await h.store.collection('fanouts').deleteMany({});
  await notifyOfPost(h.ctx, e);
  await h.settle();
  expect(h.apns.requests).toHaveLength(2);
});

test('the same event published twice on the bus sends once', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  h.apns.requests.length = 0;
  const e = envelope(ada, bob);
  await h.publish(publishing.postPublished, e.data, e.id);
  await h.publish(publishing.postPublished, e.data, e.id);
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  await h.settle();
  expect(h.apns.requests).toHaveLength(2);
});
