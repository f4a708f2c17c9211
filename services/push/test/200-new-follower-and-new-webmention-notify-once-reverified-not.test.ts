import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('a new follower produces one "@bob started following you"', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  await h.register(ada, devHex(1));
  await h.register(bob, devHex(2));
  await h.followEvent(bob, ada);
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.settle();
  expect(h.apns.requests).toHaveLength(1);
  expect(h.apns.requests[0]!.token).toBe(devHex(1));
  expect(h.apns.requests[0]!.payload).toEqual({
    aps: { alert: '@bob started following you', sound: 'default' },
    from_user: { username: 'bob' },
  });
});

test('a new verified webmention produces one notification; a re-verified one none', async () => {
  const ada = h.user('ada');
  h.apns.requests.length = 0;
  await h.mentionEvent({ id: 5, targetUserId: ada.id, isNew: false, type: 'like' });
  await h.mentionEvent({
    id: 6,
    targetUserId: ada.id,
    isNew: true,
    type: 'reply',
    author: { name: 'Carol' },
  });
  await h.mentionEvent({
    id: 7,
    targetUserId: ada.id,
    isNew: true,
    type: 'like',
    author: {},
    source: 'https://dave.example/likes/1',
  });
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  await h.settle();
  // Two events' deliveries run side by side: which arrives first is not part of the contract.
  const alert = (p: unknown) => (p as { aps: { alert: string } }).aps.alert;
  expect(h.apns.requests.map((r) => r.payload).sort((a, b) => alert(a).localeCompare(alert(b)))).toEqual([
    { aps: { alert: 'Carol replied to your post', sound: 'default' } },
    { aps: { alert: 'dave.example liked your post', sound: 'default' } },
  ]);
});
