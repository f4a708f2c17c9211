// Categories come from use: newPost/editPost create them on first use, match them case-insensitively
// afterwards, and getCategories lists them with both member naming styles and working URLs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h.stop());

describe('categories', () => {
  it('are created by posts and listed by getCategories in both styles', async () => {
    await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { description: 'a', categories: ['Notes', 'Café Life'] },
    ]);
    await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, { description: 'b', categories: ['notes'] }]);
    await h.call('service.newPost', ['0', 'ada', ada.token, { description: 'c', categories: 'Single' }]);
    const res = await h.call('metaWeblog.getCategories', ['0', 'ada', ada.token]);
    const categories = res.value as any[];
    expect(categories.map((c) => c.categoryName).sort()).toEqual(['Café Life', 'Notes', 'Single']);
    const cafe = categories.find((c) => c.name === 'Café Life');
    expect(cafe).toEqual({
      categoryId: String(cafe.id),
      categoryName: 'Café Life',
      description: '',
      htmlUrl: `${h.url}/sites/ada/categories/cafe-life/`,
      rssUrl: `${h.url}/sites/ada/categories/cafe-life/feed.xml`,
      id: cafe.id,
      name: 'Café Life',
    });
    expect(typeof cafe.id).toBe('number');
    const same = await h.call('service.getCategories', ['0', 'ada', ada.token]);
    expect(same.value).toEqual(categories);

    const page = await h.get(new URL(cafe.htmlUrl).pathname);
    expect(page.statusCode).toBe(200);
    expect(page.text).toContain('class="h-entry"');
    const rss = await h.get(new URL(cafe.rssUrl).pathname);
    expect(rss.statusCode).toBe(200);
    expect(rss.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
  });

  it('a post lists the stored spelling of the names it used', async () => {
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { description: 'd', categories: ['NOTES', 'single'] },
    ]);
    const post = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
    expect(post.value.categories).toEqual(['Notes', 'Single']);
  });

  it('bad category lists → −32602, nothing created', async () => {
    const before = await h.counts();
    for (const categories of [
      [''],
      ['x'.repeat(101)],
      Array.from({ length: 51 }, (_, i) => `c${i}`),
      [1, 2],
      { a: 'b' },
    ]) {
      const res = await h.call('metaWeblog.newPost', [
        '0',
        'ada',
        ada.token,
        { description: 'e', categories: categories as any },
      ]);
      expect(res.fault?.faultCode).toBe(-32602);
    }
    expect(await h.counts()).toEqual(before);
  });
});
