// Search (users by username, name or site host, at most 20) and preview (a user's newest public
// posts without following them), both from microsub's own copy of users and sites and feeds'
// timelines; neither makes an outbound request nor creates a follow.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { at, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.site(h.cat, 30, 'https://kitten.example/');
  // bob follows cat: bob's own timeline holds cat's post, which bob's preview must leave out.
  expect((await h.post({ action: 'follow', username: 'cat' }, h.bob.token)).statusCode).toBe(200);
  for (let id = 1; id <= 25; id++) await h.publish({ id, userId: h.bob.id, publishedAt: at(-1000 + id) });
  await h.publish({ id: 99, userId: h.cat.id, publishedAt: at(-1) });
});

afterAll(async () => {
  await h.stop();
});

const search = async (query: string, method: 'GET' | 'POST' = 'GET') => {
  const res =
    method === 'GET'
      ? await h.get({ action: 'search', query }, h.ann.token)
      : await h.post({ action: 'search', query }, h.ann.token);
  expect(res.statusCode).toBe(200);
  return (res.json() as any).results as { url: string; name: string }[];
};

it('finds users by part of their username, name or site host, case-insensitively', async () => {
  const bob = await eventually(async () => {
    const found = await search('bo');
    return found.length > 0 ? found : undefined;
  });
  expect(bob).toEqual([
    { type: 'feed', url: `${h.publicUrl}/bob/`, name: 'Bob', photo: 'https://img.example/bob.png' },
  ]);
  expect((await search('BO', 'POST')).map((r) => r.name)).toEqual(['Bob']);
  const kitten = await eventually(async () => {
    const found = await search('kitten');
    return found.length > 0 ? found : undefined;
  });
  expect(kitten).toEqual([
    { type: 'feed', url: 'https://kitten.example/', name: 'Cat', photo: 'https://img.example/cat.png' },
  ]);
  expect(await search('zzz-nobody')).toEqual([]);
});

it('refuses an empty or over-long query with 400', async () => {
  for (const query of ['', '   ', 'x'.repeat(201)]) {
    const res = await h.get({ action: 'search', query }, h.ann.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
  }
  const missing = await h.post({ action: 'search' }, h.ann.token);
  expect(missing.statusCode).toBe(400);
});

it("previews a user's 20 newest posts without _is_read and without following", async () => {
  for (const params of [{ username: 'bob' }, { url: `${h.publicUrl}/bob/` }] as Record<string, string>[]) {
    const res = await h.get({ action: 'preview', ...params }, h.ann.token);
    expect(res.statusCode).toBe(200);
    const items = (res.json() as any).items;
    expect(items.map((i: any) => i._id)).toEqual(Array.from({ length: 20 }, (_, i) => String(25 - i)));
    expect(items[0]).not.toHaveProperty('_is_read');
    expect(items[0]).toMatchObject({ type: 'entry', author: { name: 'Bob' } });
  }
  const post = await h.post({ action: 'preview', url: 'https://kitten.example/' }, h.ann.token);
  expect((post.json() as any).items.map((i: any) => i._id)).toEqual(['99']);
  expect(((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items).toEqual([]);
  expect(((await h.get({ action: 'timeline' }, h.ann.token)).json() as any).items).toEqual([]);
});

it('answers 400 without url or username and 404 for nobody', async () => {
  const missing = await h.get({ action: 'preview' }, h.ann.token);
  expect(missing.statusCode).toBe(400);
  for (const params of [{ username: 'nobody' }, { url: 'https://nowhere.example/' }] as Record<
    string,
    string
  >[]) {
    const res = await h.get({ action: 'preview', ...params }, h.ann.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  }
});

it('needs the read scope', async () => {
  const token = h.token(h.ann, ['follow']);
  for (const action of ['search', 'preview']) {
    const res = await h.get({ action, query: 'bo', username: 'bob' }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ scope: 'read' });
  }
});
