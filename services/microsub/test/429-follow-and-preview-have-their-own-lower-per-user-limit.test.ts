// `follow` and `preview` share a per-user limit of their own (MICROSUB_FOLLOWS_PER_MINUTE, below the
// route's MICROSUB_REQUESTS_PER_MINUTE): a follow of a web page makes the reader fetch and read it, so a
// token may not ask for that hundreds of times a minute (issue 37). Over it → 429 with Retry-After;
// other actions and other users go on.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { MICROSUB_FOLLOWS_PER_MINUTE: '3' } });
});

afterAll(async () => {
  await h.stop();
});

it('the fourth follow or preview of a user within a minute → 429 with Retry-After; the rest goes on', async () => {
  const first = [
    await h.get({ action: 'preview', username: 'bob' }, h.ann.token),
    await h.post({ action: 'preview', username: 'cat' }, h.ann.token),
    await h.post({ action: 'follow', username: 'bob' }, h.ann.token),
  ];
  expect(first.map((r) => r.statusCode)).toEqual([200, 200, 200]);

  for (const over of [
    await h.post({ action: 'follow', username: 'cat' }, h.ann.token),
    await h.get({ action: 'preview', username: 'cat' }, h.ann.token),
  ]) {
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.json()).toMatchObject({
      error: expect.any(String),
      error_description: 'Too many follow and preview requests; try again in a minute.',
    });
  }

  // Reading, listing follows and unfollowing are not follows.
  expect((await h.get({ action: 'timeline' }, h.ann.token)).statusCode).toBe(200);
  expect((await h.get({ action: 'follow' }, h.ann.token)).statusCode).toBe(200);
  expect((await h.post({ action: 'unfollow', username: 'bob' }, h.ann.token)).statusCode).toBe(200);
  // Another user has an allowance of their own.
  expect((await h.get({ action: 'preview', username: 'ann' }, h.cat.token)).statusCode).toBe(200);

  // A minute later the user may follow again.
  h.clock.advance(61_000);
  expect((await h.post({ action: 'follow', username: 'cat' }, h.ann.token)).statusCode).toBe(200);
});
