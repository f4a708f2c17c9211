// Channels managed the way Monocle makes its Microsub requests (issue 36, finding 4): form-encoded
// POSTs with a Bearer token carrying Monocle's scopes (`create update read follow channels`), arrays
// as `channels[]`. Written from the Microsub spec's channel actions: `name` alone creates a channel
// (answer: its `uid` and `name`), `channel` with `name` renames it, `method=order` with `channels[]`
// orders, `method=delete` with `channel` deletes; `notifications` comes first and stays there. A
// follow made with `channel` goes into that channel, which then holds its posts, read state and count;
// deleting the channel ends its follows.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
let uid: string;

type ChannelJson = { uid: string; name: string; unread?: number };

const list = async (): Promise<ChannelJson[]> => {
  const res = await h.get({ action: 'channels' }, token);
  expect(res.statusCode).toBe(200);
  return (res.json() as { channels: ChannelJson[] }).channels;
};

const form = (pairs: Array<[string, string]>) => h.post(pairs, token);

const follows = async (channel?: string) => {
  const res = await h.get({ action: 'follow', ...(channel ? { channel } : {}) }, token);
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: { url: string }[] }).items.map((i) => i.url);
};

beforeAll(async () => {
  h = await startHarness();
  token = h.token(h.ann, ['create', 'update', 'read', 'follow', 'channels']);
});

afterAll(async () => {
  await h.stop();
});

it('lists notifications first, then the timeline, bookmarks and discover', async () => {
  expect(await list()).toEqual([
    { uid: 'notifications', name: 'Mentions', unread: 0 },
    { uid: 'default', name: 'Timeline', unread: 0 },
    { uid: 'bookmarks', name: 'Bookmarks' },
    { uid: 'discover', name: 'Discover' },
  ]);
});

it('creates a channel from a name, answering its uid and name, and lists it last', async () => {
  const res = await form([
    ['action', 'channels'],
    ['name', 'Friends'],
  ]);
  expect(res.statusCode).toBe(200);
  const created = res.json() as ChannelJson;
  expect(created).toEqual({ uid: expect.stringMatching(/^[a-z0-9]{8,64}$/), name: 'Friends' });
  uid = created.uid;
  expect((await list()).map((c) => [c.uid, c.name, c.unread])).toEqual([
    ['notifications', 'Mentions', 0],
    ['default', 'Timeline', 0],
    ['bookmarks', 'Bookmarks', undefined],
    ['discover', 'Discover', undefined],
    [uid, 'Friends', 0],
  ]);
});

it('renames a channel it created and a built-in one, answering uid and new name', async () => {
  const renamed = await form([
    ['action', 'channels'],
    ['channel', uid],
    ['name', 'Close friends'],
  ]);
  expect(renamed.statusCode).toBe(200);
  expect(renamed.json()).toEqual({ uid, name: 'Close friends' });
  const home = await form([
    ['action', 'channels'],
    ['channel', 'default'],
    ['name', 'Home'],
  ]);
  expect(home.json()).toEqual({ uid: 'default', name: 'Home' });
  expect((await list()).map((c) => c.name)).toEqual([
    'Mentions',
    'Home',
    'Bookmarks',
    'Discover',
    'Close friends',
  ]);
});

it('orders channels by a full channels[] list, and swaps the slots of a partial one', async () => {
  const res = await form([
    ['action', 'channels'],
    ['method', 'order'],
    ['channels[]', 'notifications'],
    ['channels[]', uid],
    ['channels[]', 'default'],
    ['channels[]', 'discover'],
    ['channels[]', 'bookmarks'],
  ]);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    channels: [
      { uid: 'notifications', name: 'Mentions' },
      { uid, name: 'Close friends' },
      { uid: 'default', name: 'Home' },
      { uid: 'discover', name: 'Discover' },
      { uid: 'bookmarks', name: 'Bookmarks' },
    ],
  });
  expect((await list()).map((c) => c.uid)).toEqual([
    'notifications',
    uid,
    'default',
    'discover',
    'bookmarks',
  ]);
  // Only the listed channels move, within the places they hold; notifications may be left out.
  await form([
    ['action', 'channels'],
    ['method', 'order'],
    ['channels[]', 'bookmarks'],
    ['channels[]', 'discover'],
  ]);
  expect((await list()).map((c) => c.uid)).toEqual([
    'notifications',
    uid,
    'default',
    'bookmarks',
    'discover',
  ]);
  // Indigenous-style indexed arrays work too.
  await form([
    ['action', 'channels'],
    ['method', 'order'],
    ['channels[0]', 'default'],
    ['channels[1]', uid],
  ]);
  expect((await list()).map((c) => c.uid)).toEqual([
    'notifications',
    'default',
    uid,
    'bookmarks',
    'discover',
  ]);
});

it('follows into the chosen channel, which then holds the posts, read state and count', async () => {
  // cat is followed into the timeline first, then moved into the new channel by following again.
  expect(
    (
      await form([
        ['action', 'follow'],
        ['username', 'cat'],
      ])
    ).statusCode,
  ).toBe(200);
  const res = await form([
    ['action', 'follow'],
    ['channel', uid],
    ['url', `${h.publicUrl}/bob/`],
  ]);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({});
  expect(
    (
      await form([
        ['action', 'follow'],
        ['channel', uid],
        ['username', 'cat'],
      ])
    ).statusCode,
  ).toBe(200);
  expect(await follows(uid)).toEqual([`${h.publicUrl}/bob/`, `${h.publicUrl}/cat/`]);
  expect(await follows('default')).toEqual([]);
  expect(await follows('notifications')).toEqual([]);
  expect(await follows()).toEqual([`${h.publicUrl}/bob/`, `${h.publicUrl}/cat/`]);

  await h.publish({ id: 1, userId: h.bob.id, publishedAt: at(10) });
  await h.publish({ id: 2, userId: h.cat.id, publishedAt: at(11) });
  await h.publish({ id: 3, userId: h.ann.id, publishedAt: at(12) });
  const page = (await h.get({ action: 'timeline', channel: uid }, token)).json() as {
    items: { _id: string; _is_read: boolean }[];
  };
  expect(page.items.map((i) => [i._id, i._is_read])).toEqual([
    ['2', false],
    ['1', false],
  ]);
  expect(idsOf(await h.get({ action: 'timeline', channel: 'default' }, token))).toEqual(['3']);
  const counts = Object.fromEntries((await list()).map((c) => [c.uid, c.unread]));
  expect(counts).toMatchObject({ [uid]: 2, default: 1, notifications: 0 });

  await form([
    ['action', 'timeline'],
    ['channel', uid],
    ['method', 'mark_read'],
    ['entry[]', '2'],
  ]);
  expect(idsOf(await h.get({ action: 'timeline', channel: uid, is_read: 'false' }, token))).toEqual(['1']);
  expect(Object.fromEntries((await list()).map((c) => [c.uid, c.unread]))).toMatchObject({ [uid]: 1 });
});

it('deletes a channel with method=delete, ending its follows; a deleted uid is unknown', async () => {
  const res = await form([
    ['action', 'channels'],
    ['method', 'delete'],
    ['channel', uid],
  ]);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ deleted: true });
  expect((await list()).map((c) => c.uid)).toEqual(['notifications', 'default', 'bookmarks', 'discover']);
  expect(await follows()).toEqual([]);
  expect(idsOf(await h.get({ action: 'timeline', channel: 'default' }, token))).toEqual(['3']);
  const gone = await h.get({ action: 'timeline', channel: uid }, token);
  expect(gone.statusCode).toBe(404);
  expect(gone.json()).toMatchObject({ error: 'not_found' });
  const again = await form([
    ['action', 'channels'],
    ['method', 'delete'],
    ['channel', uid],
  ]);
  expect(again.statusCode).toBe(404);
});

it('deletes the built-in discover and bookmarks channels, which hold no follows', async () => {
  for (const channel of ['discover', 'bookmarks']) {
    const res = await form([
      ['action', 'channels'],
      ['method', 'delete'],
      ['channel', channel],
    ]);
    expect(res.json()).toEqual({ deleted: true });
  }
  expect((await list()).map((c) => c.uid)).toEqual(['notifications', 'default']);
  expect((await h.get({ action: 'timeline', channel: 'discover' }, token)).statusCode).toBe(404);
});
