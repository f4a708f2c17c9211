// Changing channels (create, rename, order, delete) needs the `channels` scope Monocle asks for;
// listing them stays with `read`; following into a channel needs `follow`. An app token may do all.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

const writes: Array<Array<[string, string]>> = [
  [['name', 'Friends']],
  [
    ['channel', 'default'],
    ['name', 'Home'],
  ],
  [
    ['method', 'order'],
    ['channels[]', 'discover'],
    ['channels[]', 'bookmarks'],
  ],
  [
    ['method', 'delete'],
    ['channel', 'discover'],
  ],
];

it('answers 403 insufficient_scope naming channels to every channel change without it', async () => {
  const token = h.token(h.ann, ['create', 'update', 'read', 'follow']);
  for (const pairs of writes) {
    const res = await h.post([['action', 'channels'], ...pairs], token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'insufficient_scope', scope: 'channels' });
  }
  expect((await h.get({ action: 'channels' }, token)).statusCode).toBe(200);
  const names = ((await h.get({ action: 'channels' }, token)).json() as { channels: { name: string }[] })
    .channels;
  expect(names.map((c) => c.name)).toEqual(['Mentions', 'Timeline', 'Bookmarks', 'Discover']);
});

it('lets a channels token change channels but not read them or follow into them', async () => {
  const token = h.token(h.cat, ['channels']);
  const created = await h.post(
    [
      ['action', 'channels'],
      ['name', 'Friends'],
    ],
    token,
  );
  expect(created.statusCode).toBe(200);
  const uid = (created.json() as { uid: string }).uid;
  const list = await h.get({ action: 'channels' }, token);
  expect(list.statusCode).toBe(403);
  expect(list.json()).toMatchObject({ error: 'insufficient_scope', scope: 'read' });
  const follow = await h.post(
    [
      ['action', 'follow'],
      ['channel', uid],
      ['username', 'bob'],
    ],
    token,
  );
  expect(follow.statusCode).toBe(403);
  expect(follow.json()).toMatchObject({ scope: 'follow' });
});

it('lets an app token do everything', async () => {
  for (const pairs of writes) {
    expect((await h.post([['action', 'channels'], ...pairs], h.bob.token)).statusCode).toBe(200);
  }
});
