// A device token stays with the account that registered it first, until that account unregisters it
// or APNs reports it gone (docs/api/push.md, "A device belongs to one account"): another user's
// register is 409 and changes nothing, so nobody can take a phone's notifications away from its owner
// or aim their own at it by knowing its token (issue 37).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const info = (token: string) => h.request('GET', '/users/push/info?push_env=production', { token });

test("B registering A's token → 409, A keeps it and keeps receiving; B gets nothing on it", async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  const carol = h.user('carol');
  const mine = await h.register(ada, devHex(1));
  expect(mine.statusCode).toBe(201);

  // Also in another spelling (upper-case hex), another environment or another app of the same token.
  for (const [token, query] of [
    [devHex(1), 'push_env=production'],
    [devHex(1).toUpperCase(), 'push_env=production'],
    [devHex(1), 'push_env=sandbox'],
  ] as const) {
    const taken = await h.register(bob, token, query);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      error:
        'This device is registered to another account. Sign out of that account on the device (which ' +
        'unregisters it) before registering it here.',
    });
  }
  expect((await info(ada.token)).json()).toEqual([mine.json().device]);
  expect((await info(bob.token)).json()).toEqual([]);
  // B cannot unregister it either.
  const notBobs = await h.request(
    'POST',
    `/users/push/unregister?device_token=${devHex(1)}&push_env=production`,
    { token: bob.token },
  );
  expect(notBobs.statusCode).toBe(404);

  // A mention of ada still reaches her phone; one of bob reaches no phone at all.
  await h.postEvent({
    id: 7,
    userId: carol.id,
    contentText: 'hi @ada',
    mentions: [{ userId: ada.id, username: 'ada' }],
  });
  await h.postEvent({
    id: 8,
    userId: carol.id,
    contentText: 'hi @bob',
    mentions: [{ userId: bob.id, username: 'bob' }],
  });
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.settle();
  expect(h.apns.requests.map((r) => [r.token, r.payload.aps.alert])).toEqual([
    [devHex(1), '@carol mentioned you: hi @ada'],
  ]);
});

test('once A unregisters it, B may register it (201), and then it is B’s', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  const gone = await h.request(
    'POST',
    `/users/push/unregister?device_token=${devHex(1)}&push_env=production`,
    { token: ada.token },
  );
  expect(gone.statusCode).toBe(200);
  const moved = await h.register(bob, devHex(1));
  expect(moved.statusCode).toBe(201);
  expect((await info(bob.token)).json()).toEqual([moved.json().device]);
  expect((await h.register(ada, devHex(1))).statusCode).toBe(409);
});

test('a token APNs reported gone (410) is free again', async () => {
  const dave = h.user('dave');
  const erin = h.user('erin');
  const token = devHex(0xd0);
  await h.register(dave, token);
  h.apns.answerFor = (req) => (req.token === token ? { status: 410, reason: 'Unregistered' } : undefined);
  await h.followEvent(erin, dave);
  await eventually(async () => ((await info(dave.token)).json().length === 0 ? true : undefined));
  h.apns.answerFor = undefined;
  expect((await h.register(erin, token)).statusCode).toBe(201);
});
