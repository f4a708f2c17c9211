// Saved links are fetched through the safe fetcher: with private addresses not allowed (the default),
// a bookmark or read-later URL on a loopback address is never requested; the item stays a plain link.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, startHarness, type Account, type Harness } from './harness.js';
import { V1 } from './jsonfeed.js';
import { ARTICLE_HTML, startPageServer, type PageServer } from './pages.js';

let h: Harness;
let ada: Account;
let pages: PageServer;

beforeAll(async () => {
  h = await startHarness({ env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
  ada = await h.createUser('ada');
  pages = await startPageServer({ '/secret': { type: 'text/html', body: ARTICLE_HTML } }, '127.0.0.2');
});
afterAll(async () => {
  await h?.stop();
  await pages?.close();
});

it('never requests a page on a private address', async () => {
  const url = `${pages.url}/secret`;
  const bookmark = await h.request('POST', '/posts/bookmarks', { token: ada.token, body: { url } });
  expect(bookmark.statusCode).toBe(200);
  const later = await h.request('POST', '/feeds/readlater', { token: ada.token, body: { url } });
  expect(later.statusCode).toBe(200);
  // Both jobs end (refused, not retried).
  await eventually(async () => {
    const b = await h.store.collection('bookmarks').findOne({});
    const r = await h.store.collection('readlater').findOne({});
    return b?.status === 'failed' && r?.status === 'failed' ? true : undefined;
  });
  expect(pages.hits).toEqual([]);
  const urls = (await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json();
  const readLater = await h.feed(new URL(urls.readlater_url).pathname, V1);
  expect(readLater.items[0]).toMatchObject({ url, content_html: `<p><a href="${url}">${url}</a></p>` });
  expect(readLater.items[0]!.title).toBeUndefined();
  const bookmarks = await h.feed(new URL(urls.bookmarks_url).pathname, V1);
  expect(bookmarks.items[0]!.title).toBeUndefined();
});
