// Unknown channels and users are 404 not_found; one user's read state, removals and follows never
// show in another's answers.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;

const unreadOf = async (token: string) =>
  ((await h.get({ action: 'channels' }, token)).json() as any).channels.find((c: any) => c.uid === 'default')
    .unread as number;

beforeAll(async () => {
  h = await startHarness();
  // ann and cat both follow bob and both start before his posts.
  for (const user of [h.ann, h.cat]) {
    expect((await h.post({ action: 'follow', username: 'bob' }, user.token)).statusCode).toBe(200);
    expect(await unreadOf(user.token)).toBe(0);
  }
  for (let id = 1; id <= 4; id++) await h.publish({ id, userId: h.bob.id, publishedAt: at(id) });
});

afterAll(async () => {
  await h.stop();
});

it('answers 404 not_found for an unknown channel, on GET and POST', async () => {
  for (const res of [
    await h.get({ action: 'timeline', channel: 'nope' }, h.ann.token),
    await h.post({ action: 'timeline', channel: 'nope', method: 'mark_read', entry: '1' }, h.ann.token),
  ]) {
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', error_description: expect.any(String) });
  }
});

it('answers 404 not_found when following or unfollowing nobody', async () => {
  for (const form of [
    { action: 'follow', username: 'nobody' },
    { action: 'unfollow', username: 'nobody' },
    { action: 'follow', url: 'https://unknown.example/some/page' },
  ] as Record<string, string>[]) {
    const res = await h.post(form, h.ann.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  }
});

it("keeps one user's marks and removals out of another's counts and timelines", async () => {
  expect(await unreadOf(h.ann.token)).toBe(4);
  await h.post({ action: 'timeline', method: 'mark_read', entry: '4' }, h.ann.token);
  await h.post({ action: 'timeline', method: 'remove', entry: '3' }, h.ann.token);
  await h.post({ action: 'timeline', method: 'mark_read', last_read_entry: '1' }, h.ann.token);
  expect(await unreadOf(h.ann.token)).toBe(1);
  expect(await unreadOf(h.cat.token)).toBe(4);
  expect(idsOf(await h.get({ action: 'timeline' }, h.cat.token))).toEqual(['4', '3', '2', '1']);
  expect(idsOf(await h.get({ action: 'timeline' }, h.ann.token))).toEqual(['4', '2', '1']);
  // cat marking ann's ids changes nothing for ann.
  await h.post({ action: 'timeline', method: 'mark_unread', entry: '4' }, h.cat.token);
  await h.post({ action: 'timeline', method: 'mark_read', last_read_entry: 'everything' }, h.cat.token);
  expect(await unreadOf(h.ann.token)).toBe(1);
  expect(await unreadOf(h.cat.token)).toBe(0);
});

it("keeps one user's follows out of another's follow list and timeline", async () => {
  await h.post({ action: 'unfollow', username: 'bob' }, h.cat.token);
  expect(((await h.get({ action: 'follow' }, h.cat.token)).json() as any).items).toEqual([]);
  expect(((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items).toHaveLength(1);
  expect(idsOf(await h.get({ action: 'timeline' }, h.cat.token))).toEqual([]);
});
