// Timelines come from feeds: JF2 items newest first, limit, before/after cursors that never skip or
// repeat an item while new posts arrive, and the end of the channel.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // ann follows bob; bob has 45 posts, one a minute, all before ann first used Microsub.
  const follow = await h.post({ action: 'follow', username: 'bob' }, h.ann.token);
  expect(follow.statusCode).toBe(200);
  for (let i = 1; i <= 45; i++) await h.publish({ id: i, userId: h.bob.id, publishedAt: at(-3600 + i * 60) });
});

afterAll(async () => {
  await h.stop();
});

it('answers JF2 entries with string _id, +00:00 published, content.html and an author card', async () => {
  await h.publish({
    id: 100,
    userId: h.bob.id,
    publishedAt: at(-10),
    title: 'A titled post',
    contentHtml: '<p>Hello <b>there</b></p>',
    photos: ['https://img.example/p.jpg'],
  });
  const res = await h.get({ action: 'timeline' }, h.ann.token);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as any;
  expect(body.items[0]).toEqual({
    type: 'entry',
    _id: '100',
    published: at(-10),
    url: 'https://site2.example/posts/100',
    name: 'A titled post',
    content: { html: '<p>Hello <b>there</b></p>', text: 'post 100' },
    photo: ['https://img.example/p.jpg'],
    author: { type: 'card', name: 'Bob', url: `${h.publicUrl}/bob/`, photo: 'https://img.example/bob.png' },
    _is_read: true,
  });
  expect(body.items[0].published).toMatch(/\+00:00$/);
  expect(body.items[1]).not.toHaveProperty('name');
  expect(body.items[1]).not.toHaveProperty('photo');
  await h.unpublish({ id: 100, userId: h.bob.id, publishedAt: at(-10) });
});

it('returns 20 items by default, at most 100, and newest first', async () => {
  const res = await h.get({ action: 'timeline' }, h.ann.token);
  expect(res.statusCode).toBe(200);
  expect(idsOf(res)).toEqual(Array.from({ length: 20 }, (_, i) => String(45 - i)));
  const all = await h.get({ action: 'timeline', limit: '500' }, h.ann.token);
  expect(idsOf(all)).toHaveLength(45);
  const three = await h.get({ action: 'timeline', limit: '3' }, h.ann.token);
  expect(idsOf(three)).toEqual(['45', '44', '43']);
});

it('pages to the end with before: no overlap, no gap, and no paging.before on the last page', async () => {
  const seen: string[] = [];
  let before: string | undefined;
  let pages = 0;
  for (;;) {
    const res = await h.get({ action: 'timeline', limit: '7', ...(before ? { before } : {}) }, h.ann.token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as any;
    seen.push(...idsOf(res));
    pages += 1;
    expect(body.paging.after).toEqual(expect.any(String));
    if (!body.paging.before) break;
    before = body.paging.before;
  }
  expect(pages).toBe(7);
  expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => String(45 - i)));
});

it('never skips or repeats while new posts arrive between pages, and after= returns only newer ones', async () => {
  const first = await h.get({ action: 'timeline', limit: '10' }, h.ann.token);
  const firstBody = first.json() as any;
  // New posts at the top, and one back-dated into the middle of what is left to page through.
  await h.publish({ id: 46, userId: h.bob.id, publishedAt: at(-30) });
  await h.publish({ id: 47, userId: h.bob.id, publishedAt: at(-20) });
  await h.publish({ id: 48, userId: h.bob.id, publishedAt: at(-3600 + 10 * 60 + 30) });
  const seen = idsOf(first);
  let before = firstBody.paging.before as string | undefined;
  while (before) {
    const res = await h.get({ action: 'timeline', limit: '10', before }, h.ann.token);
    seen.push(...idsOf(res));
    before = (res.json() as any).paging.before;
  }
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toContain('48');
  expect(seen).not.toContain('46');
  // The newer ones come with after=, the page closest to the cursor first.
  const newer = await h.get({ action: 'timeline', after: firstBody.paging.after }, h.ann.token);
  expect(idsOf(newer)).toEqual(['47', '46']);
  const one = await h.get({ action: 'timeline', after: firstBody.paging.after, limit: '1' }, h.ann.token);
  expect(idsOf(one)).toEqual(['46']);
  const next = await h.get({ action: 'timeline', after: (one.json() as any).paging.after }, h.ann.token);
  expect(idsOf(next)).toEqual(['47']);
  const none = await h.get({ action: 'timeline', after: (newer.json() as any).paging.after }, h.ann.token);
  expect(none.json()).toEqual({ items: [], paging: {} });
});

it('answers an empty channel with "paging":{}', async () => {
  const res = await h.get({ action: 'timeline' }, h.cat.token);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ items: [], paging: {} });
});
