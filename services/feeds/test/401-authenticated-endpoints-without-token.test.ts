// Every endpoint beyond the public feeds needs a Bearer token: without one (or with a bad one) → 401 {error}.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.createUser('ada');
});
afterAll(() => h?.stop());

const endpoints: [string, string][] = [
  ['POST', '/posts/bookmarks'],
  ['GET', '/posts/bookmarks'],
  ['GET', '/posts/bookmarks/listenlater'],
  ['DELETE', '/posts/bookmarks/bm-1'],
  ['POST', '/feeds/readlater'],
  ['POST', '/feeds/readlater/rl-1/archive'],
  ['GET', '/feeds/readlater/token'],
  ['POST', '/feeds/readlater/token'],
  ['POST', '/users/follow'],
  ['POST', '/users/unfollow'],
  ['GET', '/users/following/ada'],
];

it.each(endpoints)('%s %s → 401 without a token', async (method, path) => {
  const res = await h.request(method, path);
  expect(res.statusCode).toBe(401);
  expect(typeof res.json().error).toBe('string');
  expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
});

it.each(endpoints)('%s %s → 401 with a wrong token', async (method, path) => {
  const res = await h.request(method, path, { token: 'not-a-real-token' });
  expect(res.statusCode).toBe(401);
});
