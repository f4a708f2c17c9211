// `count`: default 20, above 100 clamped to 100, 0 / not an integer → 400 naming the problem, on the
// timeline and the mentions feed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { feedWhen, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  const base = Date.parse('2026-11-01T00:00:00Z');
  for (let i = 1; i <= 110; i++) {
    await h.postEvent('published', {
      id: i,
      userId: ada.id,
      publishedAt: new Date(base + i * 60_000).toISOString().replace('.000Z', '+00:00'),
      mentions: [{ userId: ada.id, username: 'ada' }],
    });
  }
  await feedWhen(h, '/feeds/ada.json?count=200', (f) => f.items.length === 100);
}, 60_000);
afterAll(() => h?.stop());

describe.each(['/feeds/ada.json', '/feeds/ada/mentions.json'])('%s', (path) => {
  it('gives 20 items by default, newest first', async () => {
    const feed = await h.feed(path);
    expect(feed.items).toHaveLength(20);
    expect(feed.items[0]!.id).toBe('110');
    expect(feed.items[19]!.id).toBe('91');
  });

  it('clamps count=500 to 100', async () => {
    expect((await h.feed(`${path}?count=500`)).items).toHaveLength(100);
    expect((await h.feed(`${path}?count=7`)).items).toHaveLength(7);
  });

  it.each(['0', 'abc', '-3', '2.5', '1e2', ''])('refuses count=%s with 400', async (count) => {
    const res = await h.request('GET', `${path}?count=${count}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'count must be a positive integer' });
  });
});
