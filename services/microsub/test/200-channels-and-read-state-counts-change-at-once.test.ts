// The four built-in channels with unread counts, and read state: mark_read in every entry form,
// last_read_entry (and everything), mark_unread, remove, is_read=false — each reflected by the next
// action=channels at once; untracked channels accept marks as no-ops.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;

const unread = async (token: string) => {
  const res = await h.get({ action: 'channels' }, token);
  expect(res.statusCode).toBe(200);
  const channels = (res.json() as any).channels as { uid: string; unread?: number }[];
  return Object.fromEntries(channels.filter((c) => 'unread' in c).map((c) => [c.uid, c.unread]));
};

beforeAll(async () => {
  h = await startHarness();
  expect((await h.post({ action: 'follow', username: 'bob' }, h.ann.token)).statusCode).toBe(200);
  // Posts 1–3 are older than ann's first use of Microsub (read); 11–20 come after (unread).
  for (const id of [1, 2, 3]) await h.publish({ id, userId: h.bob.id, publishedAt: at(-100 + id) });
  expect(await unread(h.ann.token)).toEqual({ default: 0, notifications: 0 });
  for (let id = 11; id <= 20; id++) await h.publish({ id, userId: h.bob.id, publishedAt: at(id) });
});

afterAll(async () => {
  await h.stop();
});

it('lists exactly the four channels in order, unread integers on default and notifications only', async () => {
  const res = await h.get({ action: 'channels' }, h.ann.token);
  expect(res.json()).toEqual({
    channels: [
      { uid: 'notifications', name: 'Mentions', unread: 0 },
      { uid: 'default', name: 'Timeline', unread: 10 },
      { uid: 'bookmarks', name: 'Bookmarks' },
      { uid: 'discover', name: 'Discover' },
    ],
  });
});

it('marks _is_read per item and filters with is_read=false', async () => {
  const res = await h.get({ action: 'timeline', limit: '100' }, h.ann.token);
  const flags = Object.fromEntries((res.json() as any).items.map((i: any) => [i._id, i._is_read]));
  expect(flags['20']).toBe(false);
  expect(flags['3']).toBe(true);
  const onlyUnread = await h.get({ action: 'timeline', is_read: 'false' }, h.ann.token);
  expect(idsOf(onlyUnread)).toEqual(['20', '19', '18', '17', '16', '15', '14', '13', '12', '11']);
});

it('lowers the count at once with entry, entry[] and entry[0] forms', async () => {
  await h.post({ action: 'timeline', method: 'mark_read', entry: '20' }, h.ann.token);
  expect((await unread(h.ann.token)).default).toBe(9);
  const arr = await h.post(
    [
      ['action', 'timeline'],
      ['method', 'mark_read'],
      ['entry[]', '19'],
      ['entry[]', '18'],
    ],
    h.ann.token,
  );
  expect(arr.statusCode).toBe(200);
  expect(arr.json()).toEqual({});
  expect((await unread(h.ann.token)).default).toBe(7);
  await h.post(
    [
      ['action', 'timeline'],
      ['method', 'mark_read'],
      ['entry[0]', '17'],
      ['entry[1]', '16'],
      ['entry', '15'],
    ],
    h.ann.token,
  );
  expect((await unread(h.ann.token)).default).toBe(4);
  const json = await h.postJson({ action: 'timeline', method: 'mark_read', entry: ['14', 13] }, h.ann.token);
  expect(json.statusCode).toBe(200);
  expect((await unread(h.ann.token)).default).toBe(2);
  const onlyUnread = await h.get({ action: 'timeline', is_read: 'false' }, h.ann.token);
  expect(idsOf(onlyUnread)).toEqual(['12', '11']);
});

it('ignores unknown _ids', async () => {
  const res = await h.post({ action: 'timeline', method: 'mark_read', entry: '999999' }, h.ann.token);
  expect(res.statusCode).toBe(200);
  const unknownUnread = await h.post(
    { action: 'timeline', method: 'mark_unread', entry: '888888' },
    h.ann.token,
  );
  expect(unknownUnread.statusCode).toBe(200);
  expect((await unread(h.ann.token)).default).toBe(2);
});

it('raises the count with mark_unread, for new and for old items', async () => {
  await h.post({ action: 'timeline', method: 'mark_unread', entry: '20' }, h.ann.token);
  expect((await unread(h.ann.token)).default).toBe(3);
  await h.post({ action: 'timeline', method: 'mark_unread', entry: '2' }, h.ann.token);
  expect((await unread(h.ann.token)).default).toBe(4);
  const items = (await h.get({ action: 'timeline', limit: '100' }, h.ann.token)).json() as any;
  const flags = Object.fromEntries(items.items.map((i: any) => [i._id, i._is_read]));
  expect(flags).toMatchObject({ '20': false, '19': true, '2': false, '1': true });
});

it('last_read_entry marks that item and older ones read and leaves newer ones unread', async () => {
  // Unread now: 20, 12, 11, 2.
  await h.post({ action: 'timeline', method: 'mark_read', last_read_entry: '12' }, h.ann.token);
  expect((await unread(h.ann.token)).default).toBe(1);
  const onlyUnread = await h.get({ action: 'timeline', is_read: 'false' }, h.ann.token);
  expect(idsOf(onlyUnread)).toEqual(['20']);
  // A later post is unread again; everything marks all.
  await h.publish({ id: 21, userId: h.bob.id, publishedAt: at(21) });
  expect((await unread(h.ann.token)).default).toBe(2);
  await h.post({ action: 'timeline', method: 'mark_read', last_read_entry: 'everything' }, h.ann.token);
  expect((await unread(h.ann.token)).default).toBe(0);
  expect(idsOf(await h.get({ action: 'timeline', is_read: 'false' }, h.ann.token))).toEqual([]);
});

it('remove hides the item from later timeline pages and from the count', async () => {
  await h.publish({ id: 22, userId: h.bob.id, publishedAt: at(22) });
  expect((await unread(h.ann.token)).default).toBe(1);
  const res = await h.post({ action: 'timeline', method: 'remove', entry: '22' }, h.ann.token);
  expect(res.statusCode).toBe(200);
  expect((await unread(h.ann.token)).default).toBe(0);
  const page = await h.get({ action: 'timeline', limit: '100' }, h.ann.token);
  expect(idsOf(page)).not.toContain('22');
  expect(idsOf(page)).toContain('21');
  // Paging with a small limit steps over the removed item without a gap.
  await h.post({ action: 'timeline', method: 'remove', entry: '19' }, h.ann.token);
  const seen: string[] = [];
  let before: string | undefined;
  do {
    const r = await h.get({ action: 'timeline', limit: '2', ...(before ? { before } : {}) }, h.ann.token);
    seen.push(...idsOf(r));
    before = (r.json() as any).paging.before;
  } while (before);
  expect(seen).toEqual(['21', '20', '18', '17', '16', '15', '14', '13', '12', '11', '3', '2', '1']);
});

it('counts mentions in notifications and keeps its read state apart', async () => {
  await h.publish({
    id: 30,
    userId: h.cat.id,
    publishedAt: at(30),
    mentions: [{ userId: h.ann.id, username: 'ann' }],
  });
  const counts = await unread(h.ann.token);
  expect(counts).toEqual({ default: 0, notifications: 1 });
  const page = await h.get({ action: 'timeline', channel: 'notifications' }, h.ann.token);
  expect(idsOf(page)).toEqual(['30']);
  await h.post(
    { action: 'timeline', channel: 'notifications', method: 'mark_read', entry: '30' },
    h.ann.token,
  );
  expect(await unread(h.ann.token)).toEqual({ default: 0, notifications: 0 });
});

it('accepts mark_read and mark_unread on untracked channels as no-ops', async () => {
  for (const channel of ['bookmarks', 'discover']) {
    for (const method of ['mark_read', 'mark_unread']) {
      const res = await h.post({ action: 'timeline', channel, method, entry: '21' }, h.ann.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
    }
  }
  const bookmarks = await h.get({ action: 'timeline', channel: 'bookmarks' }, h.ann.token);
  expect(bookmarks.json()).toEqual({ items: [], paging: {} });
  const discover = (await h.get({ action: 'timeline', channel: 'discover' }, h.ann.token)).json() as {
    items: Record<string, unknown>[];
  };
  expect(discover.items[0]).toMatchObject({ _id: '30' });
  expect(discover.items.every((i) => !('_is_read' in i))).toBe(true);
  expect(await unread(h.ann.token)).toEqual({ default: 0, notifications: 0 });
});

it('counts a post of the same second as the first use as unread (published times are whole seconds)', async () => {
  h.clock.set(new Date(h.clock.nowMs() + 60_000 + 700));
  const firstUse = h.clock.nowMs();
  expect(await unread(h.bob.token)).toEqual({ default: 0, notifications: 0 });
  const sameSecond = new Date(Math.floor(firstUse / 1000) * 1000).toISOString().replace(/\.\d+Z$/, '+00:00');
  await h.publish({ id: 40, userId: h.bob.id, publishedAt: sameSecond });
  expect((await unread(h.bob.token)).default).toBe(1);
});
