import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { federation } from '@murmur/contracts';

const REMOTE_ID_BASE = federation.REMOTE_ID_BASE;
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('an account of another server following ada produces one "@carol@social.example started following you"', async () => {
  const ada = h.user('ada');
  await h.register(ada, devHex(1));
  const data = {
    userId: ada.id,
    username: ada.username,
    follower: {
      id: REMOTE_ID_BASE + 1,
      handle: 'carol@social.example',
      name: 'Carol',
      url: 'https://social.example/@carol',
      photo: '',
      actorId: 'https://social.example/users/carol',
    },
    at: '2026-11-21T08:30:00+00:00',
  };
  const id = await h.publish(federation.followerAdded, data);
  await h.publish(federation.followerAdded, data, id); // a redelivery notifies nobody again
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.settle();
  expect(h.apns.requests).toHaveLength(1);
  expect(h.apns.requests[0]!.token).toBe(devHex(1));
  expect(h.apns.requests[0]!.payload).toEqual({
    aps: { alert: '@carol@social.example started following you', sound: 'default' },
  });
});

test('a lost fediverse follower notifies nobody', async () => {
  const ada = h.user('ada');
  h.apns.requests.length = 0;
  await h.publish(federation.followerRemoved, {
    userId: ada.id,
    username: ada.username,
    follower: {
      id: REMOTE_ID_BASE + 1,
      handle: 'carol@social.example',
      name: 'Carol',
      url: 'https://social.example/@carol',
      photo: '',
      actorId: 'https://social.example/users/carol',
    },
    at: '2026-11-21T09:30:00+00:00',
  });
  await h.settle();
  expect(h.apns.requests).toHaveLength(0);
});
