import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, KEY_ID, startHarness, TEAM_ID, TOPIC, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('a post by bob mentioning @ada queues one delivery per ada device; bob gets none', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  await h.register(ada, devHex(0xa1));
  await h.register(ada, devHex(0xa2), 'push_env=production');
  await h.register(bob, devHex(0xb1));
  await h.postEvent({
    id: 1042,
    userId: bob.id,
    contentText: 'Hello @ada, see you at @bob’s place tonight',
    mentions: [
      { userId: ada.id, username: 'ada' },
      { userId: bob.id, username: 'bob' },
      { userId: ada.id, username: 'ada' },
    ],
  });
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  await h.settle();
  expect(h.apns.requests.map((r) => r.token).sort()).toEqual([devHex(0xa1), devHex(0xa2)]);

  const [req] = h.apns.requests;
  expect(req!.path).toBe(`/3/device/${req!.token}`);
  expect(req!.payload).toEqual({
    aps: { alert: '@bob mentioned you: Hello @ada, see you at @bob’s place tonight', sound: 'default' },
    post_id: '1042',
    from_user: { username: 'bob' },
  });
  expect(req!.headers).toMatchObject({
    'apns-topic': TOPIC,
    'apns-push-type': 'alert',
    'apns-priority': '10',
    'apns-expiration': String(Math.floor(h.clock.nowMs() / 1000) + 86_400),
    'content-type': 'application/json',
  });
  expect(req!.jwt).toMatchObject({
    alg: 'ES256',
    kid: KEY_ID,
    iss: TEAM_ID,
    iat: Math.floor(h.clock.nowMs() / 1000),
  });
});

test('a post starting with @ada is a reply: "@bob replied: …"', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  h.apns.requests.length = 0;
  await h.postEvent({
    id: 1043,
    userId: bob.id,
    contentText: '@Ada sure, I will bring the cake',
    mentions: [{ userId: ada.id, username: 'ada' }],
  });
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  expect(h.apns.requests[0]!.payload.aps.alert).toBe('@bob replied: sure, I will bring the cake');
  expect(h.apns.requests[0]!.payload.post_id).toBe('1043');
});

test('a post mentioning only its author, or a user without devices, sends nothing', async () => {
  const bob = h.user('bob');
  const cy = h.user('cy');
  h.apns.requests.length = 0;
  await h.postEvent({
    id: 1044,
    userId: bob.id,
    contentText: '@bob note to self',
    mentions: [{ userId: bob.id, username: 'bob' }],
  });
  await h.postEvent({
    id: 1045,
    userId: bob.id,
    contentText: 'hi @cy',
    mentions: [{ userId: cy.id, username: 'cy' }],
  });
  // A marker event after them: once it is delivered, the earlier ones have been handled.
  await h.followEvent(cy, h.user('ada'));
  await eventually(async () => (h.apns.requests.length >= 2 ? true : undefined));
  await h.settle();
  expect(h.apns.requests.map((r) => r.payload.aps.alert)).toEqual([
    '@cy started following you',
    '@cy started following you',
  ]);
});
