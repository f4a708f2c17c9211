// Read later: the saved page is fetched from a local server, its article extracted with Readability and
// sanitised (no script, no event handlers, absolute links); archiving moves it from the read-later feed
// to the bookmarks feed as `archived`. Another user cannot archive it.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';
import { V1 } from './jsonfeed.js';
import { ARTICLE_HTML, startPageServer, type PageServer } from './pages.js';

let h: Harness;
let ada: Account;
let bob: Account;
let pages: PageServer;
let readlaterPath: string;
let bookmarksPath: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  pages = await startPageServer({ '/engines': { type: 'text/html; charset=utf-8', body: ARTICLE_HTML } });
  const urls = (await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json();
  readlaterPath = new URL(urls.readlater_url).pathname;
  bookmarksPath = new URL(urls.bookmarks_url).pathname;
});
afterAll(async () => {
  await h?.stop();
  await pages?.close();
});

let saved: { id: string; url: string };

it('saves a URL and serves the extracted, sanitised article', async () => {
  const res = await h.request('POST', '/feeds/readlater', {
    token: ada.token,
    body: { url: `${pages.url}/engines` },
  });
  expect(res.statusCode).toBe(200);
  saved = res.json();
  expect(saved).toEqual({ id: expect.stringMatching(/^rl-\d+$/), url: `${pages.url}/engines` });
  const feed = await feedWhen(h, readlaterPath, (f) => f.items[0]?.title !== undefined, V1);
  const item = feed.items[0]!;
  expect(item.id).toBe(saved.id);
  expect(item.title).toMatch(/^Engines of the Past/);
  expect(item.content_html).toContain('analytical engine was designed by Charles Babbage');
  expect(item.content_html).not.toMatch(/<script|onerror|alert/);
  expect(item.content_html).toContain(`href="${pages.url}/more"`);
  expect(item.content_html).not.toContain('Copyright News');
  expect(item.summary).toMatch(/analytical engine/);
  expect(item.date_published).toMatch(/\+00:00$/);
  expect(item.authors).toBeUndefined();
  // The same URL again is the same item.
  const again = await h.request('POST', '/feeds/readlater', {
    token: ada.token,
    body: `url=${encodeURIComponent(saved.url)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(again.json()).toEqual(saved);
});

it('refuses a missing or non-http URL', async () => {
  for (const body of [{}, { url: 'javascript:alert(1)' }]) {
    const res = await h.request('POST', '/feeds/readlater', { token: ada.token, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^url: /);
  }
});

it('archives: the article leaves read later and joins the bookmarks feed', async () => {
  const asBob = await h.request('POST', `/feeds/readlater/${saved.id}/archive`, { token: bob.token });
  expect(asBob.statusCode).toBe(404);
  const res = await h.request('POST', `/feeds/readlater/${saved.id}/archive`, { token: ada.token });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({});
  expect((await h.feed(readlaterPath, V1)).items).toEqual([]);
  const bookmarks = await h.feed(bookmarksPath, V1);
  expect(bookmarks.items).toHaveLength(1);
  expect(bookmarks.items[0]).toMatchObject({
    id: expect.stringMatching(/^bm-/),
    url: saved.url,
    title: expect.stringMatching(/^Engines of the Past/),
    _service: { type: 'archived' },
  });
  expect(bookmarks.items[0]!.content_html).toContain('Charles Babbage');
  // Archiving twice changes nothing; unknown ids are 404.
  expect(
    (await h.request('POST', `/feeds/readlater/${saved.id}/archive`, { token: ada.token })).statusCode,
  ).toBe(200);
  expect(ids(await h.feed(bookmarksPath, V1))).toHaveLength(1);
  expect((await h.request('POST', '/feeds/readlater/rl-9999/archive', { token: ada.token })).statusCode).toBe(
    404,
  );
});
