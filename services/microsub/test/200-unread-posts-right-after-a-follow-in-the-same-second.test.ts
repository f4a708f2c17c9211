// A user whose first Microsub request is a follow, and whose followee then posts three times within
// the same second, finds all three unread in the next second: the read marker is set by the first
// Microsub request of any kind (here the follow), not by the first one that reads a timeline. Times
// are moved by hand, so the second boundary falls where the failure was seen (issue 37, finding 6).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, T0, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

it('shows the three posts unread, in the timeline, with is_read=false and in the count', async () => {
  const token = h.token(h.ann, ['read', 'follow']);
  h.clock.set(T0 + 300);
  const follow = await h.post({ action: 'follow', username: 'bob' }, token);
  expect(follow.statusCode).toBe(200);
  // Published in the second of the follow (published times travel in whole seconds).
  for (const id of [1, 2, 3]) await h.publish({ id, userId: h.bob.id, publishedAt: at(0) });

  h.clock.set(T0 + 1_200);
  const unread = await h.get({ action: 'timeline', is_read: 'false' }, token);
  expect(unread.statusCode).toBe(200);
  expect(idsOf(unread)).toEqual(['3', '2', '1']);
  const all = (await h.get({ action: 'timeline' }, token)).json() as {
    items: { _id: string; _is_read: boolean }[];
  };
  expect(all.items.map((i) => [i._id, i._is_read])).toEqual([
    ['3', false],
    ['2', false],
    ['1', false],
  ]);
  const channels = (await h.get({ action: 'channels' }, token)).json() as {
    channels: { uid: string; unread?: number }[];
  };
  expect(channels.channels.find((c) => c.uid === 'default')?.unread).toBe(3);
});

it('counts posts of the follow’s second unread when the first request is a search', async () => {
  const token = h.token(h.cat, ['read', 'follow']);
  h.clock.set(T0 + 10_100);
  expect((await h.post({ action: 'search', query: 'bo' }, token)).statusCode).toBe(200);
  expect((await h.post({ action: 'follow', username: 'bob' }, token)).statusCode).toBe(200);
  for (const id of [11, 12, 13]) await h.publish({ id, userId: h.bob.id, publishedAt: at(10) });
  h.clock.set(T0 + 11_900);
  expect(idsOf(await h.get({ action: 'timeline', is_read: 'false' }, token))).toEqual(['13', '12', '11']);
});
