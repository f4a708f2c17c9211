// Discover holds the recent public posts of the whole service, newest first — of people the user
// follows or not, and their own — paged with cursors like any channel, without read state
// (no `_is_read`, no `unread` count); `remove` hides a post from it for that user only.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  const authors = [h.bob, h.cat, h.ann, h.bob, h.cat];
  for (const [i, author] of authors.entries()) {
    await h.publish({ id: i + 1, userId: author.id, publishedAt: at(i + 1) });
  }
});

afterAll(async () => {
  await h.stop();
});

it('lists every public post of the service, newest first, in pages, without read state', async () => {
  const first = await h.get({ action: 'timeline', channel: 'discover', limit: '3' }, h.ann.token);
  expect(first.statusCode).toBe(200);
  const body = first.json() as { items: Record<string, unknown>[]; paging: { before?: string } };
  expect(body.items.map((i) => i._id)).toEqual(['5', '4', '3']);
  expect(body.items[0]).toMatchObject({ type: 'entry', author: { name: 'Cat' } });
  expect(body.items.every((i) => !('_is_read' in i))).toBe(true);
  const second = await h.get(
    { action: 'timeline', channel: 'discover', limit: '3', before: body.paging.before! },
    h.ann.token,
  );
  expect(idsOf(second)).toEqual(['2', '1']);
  const channels = (await h.get({ action: 'channels' }, h.ann.token)).json() as {
    channels: { uid: string; unread?: number }[];
  };
  expect(channels.channels.find((c) => c.uid === 'discover')).toEqual({ uid: 'discover', name: 'Discover' });
});

it('hides a removed post from the user’s discover only', async () => {
  const res = await h.post(
    { action: 'timeline', channel: 'discover', method: 'remove', entry: '4' },
    h.ann.token,
  );
  expect(res.statusCode).toBe(200);
  expect(idsOf(await h.get({ action: 'timeline', channel: 'discover' }, h.ann.token))).toEqual([
    '5',
    '3',
    '2',
    '1',
  ]);
  expect(idsOf(await h.get({ action: 'timeline', channel: 'discover' }, h.cat.token))).toEqual([
    '5',
    '4',
    '3',
    '2',
    '1',
  ]);
});
