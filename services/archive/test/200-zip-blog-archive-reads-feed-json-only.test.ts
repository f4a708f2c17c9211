// A blog-archive ZIP as exporters make them (index.html, feed.json, uploads/): only feed.json is read
// — at the root or in the one top folder — with its HTML preferred over the Markdown kept in
// content_text; uploads and HTML are ignored.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { blogArchiveZip } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

for (const top of ['', 'blog-export-2018']) {
  it(`imports feed.json ${top ? 'from the top folder' : 'at the root'}, preferring HTML over Markdown`, async () => {
    const who = top ? await h.createUser('bob') : ada;
    const state = await h.importFile(who, blogArchiveZip(top), 'application/zip');
    expect(state).toMatchObject({ status: 'complete', imported: 2, skipped: 0, error: null });
    const feed = await h.feed(`/imported/archive/${who.siteId}/recent.json`);
    expect(feed.items.map((i) => i.id)).toEqual(['102', '101']);
    const md = feed.items[1]!;
    expect(md.content_html).toContain('<strong>Bold</strong>');
    expect(md.content_html).not.toContain('**');
    expect(md.content_text).toBe('Bold move and a link');
    expect(md.date_published).toBe('2018-05-01T08:00:00+00:00');
    expect(md.tags).toEqual(['life']);
    expect(md.image).toBe(new URL('uploads/2018/cat.jpg', who.siteUrl).href);
    const plain = feed.items[0]!;
    expect(plain.content_html).toBe(
      '<p>A note with no HTML &#60;b&#62;at all&#60;/b&#62;.</p>\n<p>Second paragraph.</p>',
    );
  });
}
