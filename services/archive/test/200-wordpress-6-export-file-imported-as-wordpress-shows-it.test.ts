// A WordPress 6.4 export as the exporter writes it (test/fixtures/wordpress-6.4-export.xml): authors,
// terms and menus in the channel; a menu item, an attachment, a draft, a scheduled and a private post,
// a page and a reusable block beside two published posts, one of them with a comment. Only the two
// published posts are imported, as WordPress shows them: sanitised, links resolved against the site.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

it('imports the published posts and skips the seven other items', async () => {
  const file = readFileSync(new URL('./fixtures/wordpress-6.4-export.xml', import.meta.url));
  const state = await h.importFile(ada, file, 'application/xml');
  expect(state).toMatchObject({ status: 'complete', imported: 2, skipped: 7, error: null });

  const feed = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(feed.items.map((i) => i.id)).toEqual(['42', '17']);
  const [spring, winter] = feed.items;
  const site = new URL(ada.siteUrl);
  expect(spring).toMatchObject({
    url: 'https://ada.example/2019/04/02/spring/',
    title: 'Spring',
    content_text: 'First blossoms by the café on the corner.',
    date_published: '2019-04-02T09:15:00+00:00',
    tags: ['Garden', 'Café'],
    image: new URL('/wp-content/uploads/2019/04/tulips.jpg', site).href,
  });
  expect(spring!.content_html).toContain('<figure><img src="');
  expect(spring!.content_html).not.toMatch(/onerror|class=|wp:paragraph|Lovely/);
  expect(winter!.content_html).toBe(
    `<p>Long evenings, a stack of books.<br />The first one was <a href="${new URL('/2018/11/02/lists/', site).href}" rel="nofollow noopener noreferrer">on my list</a> for a year.</p>\n<p>Then the tea went cold.</p>`,
  );
  expect(winter!.tags).toEqual(['Books']);

  const search = await h.feed(`/imported/archive/${ada.siteId}/search.json?q=CAFE`);
  expect(search.items.map((i) => i.id)).toEqual(['42']);
  const years = await h.request('GET', `/imported/archive/${ada.siteId}/years.json`);
  expect(years.json()).toEqual([2018, 2019]);
});
