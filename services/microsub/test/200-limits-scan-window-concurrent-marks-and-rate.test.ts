// What protects the server and the data: counts and lookups stop at MICROSUB_SCAN_LIMIT items, an
// `after` cursor further back than that is refused, concurrent marks never lose one another, and a
// user over MICROSUB_REQUESTS_PER_MINUTE gets 429 with Retry-After.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, type Harness } from './harness.js';

let h: Harness;

const unread = async (token: string) =>
  ((await h.get({ action: 'channels' }, token)).json() as any).channels.find((c: any) => c.uid === 'default')
    .unread as number;

beforeAll(async () => {
  h = await startHarness({ env: { MICROSUB_SCAN_LIMIT: '100', MICROSUB_REQUESTS_PER_MINUTE: '60' } });
  expect(await unread(h.ann.token)).toBe(0);
  for (let id = 1; id <= 130; id++) await h.publish({ id, userId: h.ann.id, publishedAt: at(id) });
});

afterAll(async () => {
  await h.stop();
});

it('counts at most MICROSUB_SCAN_LIMIT unread items', async () => {
  expect(await unread(h.ann.token)).toBe(100);
});

it('still pages through everything with before, beyond the scan window', async () => {
  const seen: string[] = [];
  let before: string | undefined;
  do {
    const res = await h.get({ action: 'timeline', limit: '40', ...(before ? { before } : {}) }, h.ann.token);
    seen.push(...idsOf(res));
    before = (res.json() as any).paging.before;
  } while (before);
  expect(seen).toEqual(Array.from({ length: 130 }, (_, i) => String(130 - i)));
});

it('refuses an after cursor more than the scan window back with invalid_cursor', async () => {
  // 97 items are newer than the 98th: within the window of 100.
  const near = (await h.get({ action: 'timeline', limit: '98' }, h.ann.token)).json() as any;
  const ok = await h.get({ action: 'timeline', after: near.paging.before, limit: '5' }, h.ann.token);
  expect(idsOf(ok)).toEqual(['38', '37', '36', '35', '34']);
  // 100 items are newer than the 101st (item 30): reaching it would take a 101st look.
  const far = (await h.get({ action: 'timeline', limit: '100' }, h.ann.token)).json() as any;
  const next = (
    await h.get({ action: 'timeline', limit: '1', before: far.paging.before }, h.ann.token)
  ).json() as any;
  expect(next.items.map((i: any) => i._id)).toEqual(['30']);
  const tooFar = await h.get({ action: 'timeline', after: next.paging.after }, h.ann.token);
  expect(tooFar.statusCode).toBe(400);
  expect(tooFar.json()).toMatchObject({ error: 'invalid_cursor' });
});

it('keeps every one of many concurrent marks', async () => {
  const ids = Array.from({ length: 12 }, (_, i) => String(130 - i));
  const answers = await Promise.all(
    ids.map((entry) => h.post({ action: 'timeline', method: 'mark_read', entry }, h.ann.token)),
  );
  expect(answers.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
  const flags = ((await h.get({ action: 'timeline', limit: '20' }, h.ann.token)).json() as any).items.map(
    (i: any) => i._is_read,
  );
  expect(flags.slice(0, 12)).toEqual(ids.map(() => true));
  expect(flags[12]).toBe(false);
});

it('answers 429 with Retry-After once a user is over the rate', async () => {
  let res = await h.get({ action: 'channels' }, h.bob.token);
  for (let i = 0; i < 60 && res.statusCode !== 429; i++)
    res = await h.get({ action: 'channels' }, h.bob.token);
  expect(res.statusCode).toBe(429);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(res.json()).toMatchObject({ error: expect.any(String) });
  // Another user is not affected.
  expect((await h.get({ action: 'channels' }, h.cat.token)).statusCode).toBe(200);
});
