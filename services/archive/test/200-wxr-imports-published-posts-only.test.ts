// A WordPress WXR export with drafts, pages, attachments and menu items beside posts: only published
// posts are imported (the rest counted as skipped); content:encoded → HTML, wp:post_date_gmt → date,
// category and post_tag → tags, link → url, wp:post_id → id. ISO-8859-1 exports are read too.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { wordpressExport, wxr } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

it('imports the two published posts and skips the draft, page, attachment and menu item', async () => {
  const state = await h.importFile(ada, wordpressExport(), 'text/xml');
  expect(state).toMatchObject({ status: 'complete', imported: 2, skipped: 4, error: null });
  const feed = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(feed.items.map((i) => i.id)).toEqual(['12', '11']);
  const spring = feed.items[1]!;
  expect(spring).toMatchObject({
    url: 'https://old.example/?p=11',
    title: 'Spring',
    content_text: 'First blossoms.',
    date_published: '2019-04-02T09:15:00+00:00',
    tags: ['garden', 'flowers'],
    image: new URL('/wp-content/uploads/2019/04/b.jpg', ada.siteUrl).href,
  });
  expect(feed.items[0]!.title).toBe('Autumn & leaves');
  const months = await h.request('GET', `/imported/archive/${ada.siteId}/years.json`);
  expect(months.json()).toEqual([2019]);
});

it('gives classic posts stored with blank lines their paragraphs back, as WordPress shows them', async () => {
  const carol = await h.createUser('carol');
  const text = wxr([
    { id: 1, title: 'Classic', content: 'First line\nsecond line\n\n<em>New</em> paragraph' },
    { id: 2, title: 'Blocks', content: '<!-- wp:paragraph -->\n<p>One</p>\n<!-- /wp:paragraph -->' },
  ]);
  expect(await h.importFile(carol, text, 'text/xml')).toMatchObject({ status: 'complete', imported: 2 });
  const feed = await h.feed(`/imported/archive/${carol.siteId}/recent.json`);
  const byId = new Map(feed.items.map((i) => [i.id, i]));
  expect(byId.get('1')!.content_html).toBe(
    '<p>First line<br />second line</p>\n<p><em>New</em> paragraph</p>',
  );
  expect(byId.get('1')!.content_text).toBe('First line\nsecond line\n\nNew paragraph');
  expect(byId.get('2')!.content_html.trim()).toBe('<p>One</p>');
});

it('reads an export declared ISO-8859-1', async () => {
  const bob = await h.createUser('bob');
  const text = wxr([{ id: 1, title: 'Caf\u00e9 cr\u00e8me' }], { encoding: 'ISO-8859-1' });
  const state = await h.importFile(bob, Buffer.from(text, 'latin1'), 'application/xml');
  expect(state).toMatchObject({ status: 'complete', imported: 1 });
  const feed = await h.feed(`/imported/archive/${bob.siteId}/search.json?q=cafe%20creme`);
  expect(feed.items.map((i) => i.title)).toEqual(['Café crème']);
});
