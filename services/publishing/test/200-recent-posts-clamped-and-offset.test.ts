// getRecentPosts with 500 returns at most 100 posts, newest first; service.getPosts honours count and
// offset; a negative count is −32602. Post structs carry postid as a string and id as an int.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
const ids: number[] = [];

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  // 105 posts with increasing dates, a few at a time.
  const base = Date.UTC(2025, 0, 1);
  for (let batch = 0; batch < 105; batch += 15) {
    const made = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        h.call('metaWeblog.newPost', [
          '0',
          'ada',
          ada.token,
          { description: `post ${batch + i}`, dateCreated: new Date(base + (batch + i) * 60_000) },
        ]),
      ),
    );
    ids.push(...made.map((r) => r.value as number));
  }
}, 60_000);
afterAll(() => h.stop());

describe('listing posts', () => {
  it('getRecentPosts with 500 → the newest 100, newest first', async () => {
    const res = await h.call('metaWeblog.getRecentPosts', ['0', 'ada', ada.token, 500]);
    const posts = res.value as any[];
    expect(posts).toHaveLength(100);
    expect(posts[0].description).toBe('post 104');
    expect(posts[99].description).toBe('post 5');
    const times = posts.map((p) => p.dateCreated.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(typeof posts[0].postid).toBe('string');
    expect(typeof posts[0].id).toBe('number');
  });

  it('getRecentPosts without a count → 25', async () => {
    const res = await h.call('metaWeblog.getRecentPosts', ['0', 'ada', ada.token]);
    expect(res.value).toHaveLength(25);
  });

  it('service.getPosts honours count and offset', async () => {
    const res = await h.call('service.getPosts', ['0', 'ada', ada.token, 3, 10]);
    expect((res.value as any[]).map((p) => p.description)).toEqual(['post 94', 'post 93', 'post 92']);
    const tail = await h.call('service.getPosts', ['0', 'ada', ada.token, '50', '100']);
    expect((tail.value as any[]).map((p) => p.description)).toEqual([
      'post 4',
      'post 3',
      'post 2',
      'post 1',
      'post 0',
    ]);
  });

  it('a negative count or offset → −32602', async () => {
    expect((await h.call('metaWeblog.getRecentPosts', ['0', 'ada', ada.token, -1])).fault?.faultCode).toBe(
      -32602,
    );
    expect((await h.call('service.getPosts', ['0', 'ada', ada.token, 5, -3])).fault?.faultCode).toBe(-32602);
  });
});
