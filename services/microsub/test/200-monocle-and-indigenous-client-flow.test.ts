// The way real readers drive the endpoint through the gateway: the token as an `access_token`
// parameter, form-encoded writes with `action` in the body, Indigenous' `entry[N]` and PHP clients'
// `entry[]` lists, Monocle's "unread only" view and "mark all read" with last_read_entry, a channels
// reload after every mark, and paging to the end with `before` while new posts are published.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import { at, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;

const form = (pairs: Array<[string, string]>) =>
  sendOverWire(h.url, {
    method: 'POST',
    url: '/microsub',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://monocle.example' },
    payload: new URLSearchParams([...pairs, ['access_token', token]]).toString(),
  });

const query = async (params: Record<string, string>) => {
  const res = await sendOverWire(h.url, {
    method: 'GET',
    url: `/microsub?${new URLSearchParams({ ...params, access_token: token })}`,
    headers: { origin: 'https://monocle.example' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  return res.json() as any;
};

const badge = async () =>
  (await query({ action: 'channels' })).channels.find((c: any) => c.uid === 'default').unread as number;

beforeAll(async () => {
  h = await startHarness();
  token = h.token(h.ann, ['read', 'follow']);
});

afterAll(async () => {
  await h.stop();
});

it('lists notifications first, follows, pages, and marks read the way clients do', async () => {
  const channels = await query({ action: 'channels' });
  expect(channels.channels.slice(0, 2)).toEqual([
    { uid: 'notifications', name: 'Mentions', unread: 0 },
    { uid: 'default', name: 'Timeline', unread: 0 },
  ]);

  const follow = await form([
    ['action', 'follow'],
    ['channel', 'default'],
    ['url', `${h.publicUrl}/bob/`],
  ]);
  expect(follow.statusCode).toBe(200);
  for (let id = 1; id <= 25; id++) await h.publish({ id, userId: h.bob.id, publishedAt: at(id * 10) });
  expect(await badge()).toBe(25);

  // Page to the end with before while bob keeps publishing.
  const seen: string[] = [];
  let page = await query({ action: 'timeline', channel: 'default', limit: '10' });
  for (let extra = 26; ; extra++) {
    seen.push(...page.items.map((i: any) => i._id));
    if (!page.paging.before) break;
    await h.publish({ id: extra, userId: h.bob.id, publishedAt: at(extra * 10) });
    page = await query({ action: 'timeline', channel: 'default', limit: '10', before: page.paging.before });
  }
  expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => String(25 - i)));
  expect(await badge()).toBe(27);

  // Indigenous: entry[N]; PHP clients: entry[]; a single entry.
  expect(
    (
      await form([
        ['action', 'timeline'],
        ['method', 'mark_read'],
        ['channel', 'default'],
        ['entry[0]', '27'],
        ['entry[1]', '26'],
      ])
    ).json(),
  ).toEqual({});
  expect(await badge()).toBe(25);
  await form([
    ['action', 'timeline'],
    ['method', 'mark_read'],
    ['channel', 'default'],
    ['entry[]', '25'],
    ['entry[]', '24'],
    ['entry[]', '23'],
  ]);
  expect(await badge()).toBe(22);
  await form([
    ['action', 'timeline'],
    ['method', 'mark_read'],
    ['channel', 'default'],
    ['entry', '22'],
  ]);
  expect(await badge()).toBe(21);

  // Monocle's unread-only view, then "mark all read" from its newest item.
  const unread = await query({ action: 'timeline', channel: 'default', is_read: 'false', limit: '5' });
  expect(unread.items.map((i: any) => i._id)).toEqual(['21', '20', '19', '18', '17']);
  expect(unread.items.every((i: any) => i._is_read === false)).toBe(true);
  await form([
    ['action', 'timeline'],
    ['method', 'mark_read'],
    ['channel', 'default'],
    ['last_read_entry', unread.items[0]._id],
  ]);
  expect(await badge()).toBe(0);

  // Indigenous may try to move an entry: refused like any unknown method.
  const move = await form([
    ['action', 'timeline'],
    ['method', 'move'],
    ['channel', 'default'],
    ['entry[0]', '21'],
  ]);
  expect(move.statusCode).toBe(400);
  expect(move.json()).toMatchObject({ error: 'invalid_request' });
});
