// A channel uid is the user's own: another user naming it — to read, mark, follow into, list follows
// of, rename, delete or order it — gets what an unknown uid gets (404 not_found, or 400 naming it in
// an order), and the owner's channel, follows and posts are untouched.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;
let uid: string;

beforeAll(async () => {
  h = await startHarness();
  const created = await h.post(
    [
      ['action', 'channels'],
      ['name', 'Friends'],
    ],
    h.ann.token,
  );
  uid = (created.json() as { uid: string }).uid;
  expect(
    (
      await h.post(
        [
          ['action', 'follow'],
          ['channel', uid],
          ['username', 'bob'],
        ],
        h.ann.token,
      )
    ).statusCode,
  ).toBe(200);
  await h.publish({ id: 1, userId: h.bob.id, publishedAt: at(5) });
});

afterAll(async () => {
  await h.stop();
});

it('answers 404 not_found to every use of another user’s channel uid', async () => {
  const cat = h.cat.token;
  for (const res of [
    await h.get({ action: 'timeline', channel: uid }, cat),
    await h.get({ action: 'follow', channel: uid }, cat),
    await h.post({ action: 'timeline', channel: uid, method: 'mark_read', entry: '1' }, cat),
    await h.post({ action: 'follow', channel: uid, username: 'bob' }, cat),
    await h.post({ action: 'unfollow', channel: uid, username: 'bob' }, cat),
    await h.post({ action: 'channels', channel: uid, name: 'Mine now' }, cat),
    await h.post({ action: 'channels', channel: uid, method: 'delete' }, cat),
  ]) {
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', error_description: expect.stringContaining(uid) });
  }
  const order = await h.post(
    [
      ['action', 'channels'],
      ['method', 'order'],
      ['channels[]', uid],
      ['channels[]', 'default'],
    ],
    cat,
  );
  expect(order.statusCode).toBe(400);
  expect(order.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(uid) });
});

it('leaves the owner’s channel, follow and unread post as they were', async () => {
  const channels = (await h.get({ action: 'channels' }, h.ann.token)).json() as {
    channels: { uid: string; name: string; unread?: number }[];
  };
  expect(channels.channels.find((c) => c.uid === uid)).toEqual({ uid, name: 'Friends', unread: 1 });
  expect(idsOf(await h.get({ action: 'timeline', channel: uid, is_read: 'false' }, h.ann.token))).toEqual([
    '1',
  ]);
  const follows = (await h.get({ action: 'follow', channel: uid }, h.ann.token)).json() as {
    items: { name: string }[];
  };
  expect(follows.items.map((i) => i.name)).toEqual(['Bob']);
  expect(((await h.get({ action: 'follow' }, h.cat.token)).json() as { items: unknown[] }).items).toEqual([]);
});
