// Unread counts are what a client paging through `is_read=false` finds — with more unread items than
// one feeds page, items of the same second, marks, removals and older items marked unread — and a
// mark made through one replica is counted at once by the other, whichever replica wrote last.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;
type Client = Pick<Harness, 'get' | 'post'>;
let second: Client;

const unreadOf = async (client: Client, token: string): Promise<number> => {
  const res = await client.get({ action: 'channels' }, token);
  expect(res.statusCode).toBe(200);
  return (res.json() as { channels: { uid: string; unread?: number }[] }).channels.find(
    (c) => c.uid === 'default',
  )!.unread!;
};

/** Every unread `_id` of the default channel, paging with `before` as a client does. */
const unreadPages = async (token: string): Promise<string[]> => {
  const ids: string[] = [];
  let before: string | undefined;
  for (;;) {
    const res = await h.get(
      { action: 'timeline', is_read: 'false', limit: '37', ...(before ? { before } : {}) },
      token,
    );
    expect(res.statusCode).toBe(200);
    ids.push(...idsOf(res));
    before = (res.json() as { paging: { before?: string } }).paging.before;
    if (!before) return ids;
  }
};

const mark = (client: Client, method: string, entries: number[]) =>
  client.post(
    [
      ['action', 'timeline'],
      ['method', method],
      ...entries.map((e): [string, string] => ['entry[]', String(e)]),
    ],
    h.ann.token,
  );

beforeAll(async () => {
  h = await startHarness();
  second = await h.replica();
  for (const who of ['bob', 'cat']) {
    expect((await h.post({ action: 'follow', username: who }, h.ann.token)).statusCode).toBe(200);
  }
  // 1–20: older than ann's first use (read). Then 230 posts after it, by bob and cat, three to a second.
  for (let id = 1; id <= 20; id++) await h.publish({ id, userId: h.bob.id, publishedAt: at(-1000 + id) });
  expect(await unreadOf(h, h.ann.token)).toBe(0);
  for (let id = 101; id <= 330; id++) {
    await h.publish({ id, userId: id % 2 ? h.bob.id : h.cat.id, publishedAt: at(1 + Math.floor(id / 3)) });
  }
});

afterAll(async () => {
  await h?.stop();
});

it('counts every unread item, more than one page of them, as paging finds them', async () => {
  expect(await unreadOf(h, h.ann.token)).toBe(230);
  const ids = await unreadPages(h.ann.token);
  expect(ids).toHaveLength(230);
  expect(new Set(ids).size).toBe(230);
  expect(await unreadOf(second, h.ann.token)).toBe(230);
});

it('keeps counts and pages in agreement through marks, removals and older items marked unread', async () => {
  expect((await mark(h, 'mark_read', range(101, 150))).statusCode).toBe(200);
  expect(await unreadOf(h, h.ann.token)).toBe(180);
  expect((await mark(h, 'remove', [151, 152, 153])).statusCode).toBe(200);
  expect(await unreadOf(h, h.ann.token)).toBe(177);
  expect((await mark(h, 'mark_unread', [3, 4, 120])).statusCode).toBe(200);
  expect(await unreadOf(h, h.ann.token)).toBe(180);
  const ids = await unreadPages(h.ann.token);
  expect(ids).toHaveLength(180);
  expect(ids).toEqual(expect.arrayContaining(['3', '4', '120', '330']));
  expect(ids).not.toContain('101');
  expect(ids).not.toContain('151');
});

it('counts a mark made through either replica at once, whichever wrote before', async () => {
  // Each replica last saw the state before the other's write: its first write must not undo it.
  expect(await unreadOf(h, h.ann.token)).toBe(180);
  expect(await unreadOf(second, h.ann.token)).toBe(180);
  expect((await mark(second, 'mark_read', range(200, 209))).statusCode).toBe(200);
  expect(await unreadOf(h, h.ann.token)).toBe(170);
  expect((await mark(h, 'mark_read', range(210, 219))).statusCode).toBe(200);
  expect(await unreadOf(second, h.ann.token)).toBe(160);
  expect((await mark(second, 'mark_read', range(220, 229))).statusCode).toBe(200);
  expect((await mark(h, 'mark_read', range(230, 239))).statusCode).toBe(200);
  expect(await unreadOf(h, h.ann.token)).toBe(140);
  expect(await unreadOf(second, h.ann.token)).toBe(140);
  expect(await unreadPages(h.ann.token)).toHaveLength(140);
  // Concurrent marks through both replicas: none is lost.
  await Promise.all([
    ...range(240, 251).map((id) => mark(id % 2 ? h : second, 'mark_read', [id])),
    mark(second, 'mark_unread', [101]),
  ]);
  expect(await unreadOf(h, h.ann.token)).toBe(129);
  // Another user's state is untouched by all of it: cat's own 115 posts are all unread to cat.
  expect(await unreadOf(second, h.cat.token)).toBe(115);
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
