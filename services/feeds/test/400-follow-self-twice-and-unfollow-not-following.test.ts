// Follow rules: self → 400; twice → 200 both times, one edge, one evt.feeds.follow.created; unknown → 404;
// unfollow when not following → 200. The following list flags is_following / is_you for the caller.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;
let cy: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada' });
  bob = await h.createUser('bob', { name: 'Bob' });
  cy = await h.createUser('cy');
});
afterAll(() => h?.stop());

const post = (who: Account, path: string, body: unknown) =>
  h.request('POST', path, { token: who.token, body });

it('refuses to follow yourself', async () => {
  const res = await post(ada, '/users/follow', { username: 'ada' });
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toMatch(/yourself/);
  expect(await h.store.collection('follows').countDocuments({})).toBe(0);
});

it('follows once however often asked, and announces it once', async () => {
  expect((await post(ada, '/users/follow', { username: 'bob' })).statusCode).toBe(200);
  const again = await post(ada, '/users/follow', { username: 'bob' });
  expect(again.statusCode).toBe(200);
  expect(again.json()).toEqual({});
  // The form and query encodings work too.
  const form = await h.request('POST', '/users/follow?username=bob', { token: ada.token });
  expect(form.statusCode).toBe(200);
  expect(await h.store.collection('follows').countDocuments({ followerId: ada.id, followeeId: bob.id })).toBe(
    1,
  );
  await eventually(async () => (h.followEvents.length >= 1 ? true : undefined));
  await new Promise((r) => setTimeout(r, 200));
  expect(h.followEvents.map((e) => e.data)).toEqual([
    {
      followerId: ada.id,
      followerUsername: 'ada',
      followeeId: bob.id,
      followeeUsername: 'bob',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    },
  ]);
  expect(h.followEvents[0]!.type).toBe('feeds.follow.created');
});

it('answers 404 for unknown users and 400 without a username', async () => {
  expect((await post(ada, '/users/follow', { username: 'nobody' })).statusCode).toBe(404);
  expect((await post(ada, '/users/unfollow', { username: 'nobody' })).statusCode).toBe(404);
  const missing = await post(ada, '/users/follow', {});
  expect(missing.statusCode).toBe(400);
  expect(missing.json()).toEqual({ error: 'username: is required' });
});

it('unfollows someone not followed with 200', async () => {
  const res = await post(cy, '/users/unfollow', { username: 'ada' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({});
});

it('lists whom a user follows with flags relative to the caller', async () => {
  await post(bob, '/users/follow', { username: 'ada' });
  await post(bob, '/users/follow', { username: 'cy' });
  const asAda = await h.request('GET', '/users/following/bob', { token: ada.token });
  expect(asAda.statusCode).toBe(200);
  expect(asAda.json()).toEqual([
    {
      name: 'Ada',
      url: `${h.publicUrl}/ada/`,
      avatar: expect.any(String),
      username: 'ada',
      is_following: false,
      is_you: true,
    },
    {
      name: 'cy',
      url: `${h.publicUrl}/cy/`,
      avatar: expect.any(String),
      username: 'cy',
      is_following: false,
      is_you: false,
    },
  ]);
  const asBob = (await h.request('GET', '/users/following/bob', { token: bob.token })).json();
  expect(asBob.map((e: { is_following: boolean }) => e.is_following)).toEqual([true, true]);
  const adas = (await h.request('GET', '/users/following/ada', { token: cy.token })).json();
  expect(adas).toEqual([expect.objectContaining({ username: 'bob', is_following: false, is_you: false })]);
  expect((await h.request('GET', '/users/following/nobody', { token: ada.token })).statusCode).toBe(404);
});
