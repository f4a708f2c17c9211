// Imported HTML is sanitised by the platform when stored: no `<script>`, no `on*` attributes, no
// `style`, no `javascript:`; relative URLs resolved against the site URL; links get
// rel="nofollow noopener noreferrer". Plain text becomes escaped paragraphs; the first image is the
// item's `image`; every item has a string id, content_html and dates in the +00:00 form.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jsonFeed } from './fixtures.js';
import { startHarness, type Account, type Harness, type Item } from './harness.js';

let h: Harness;
let ada: Account;
let items: Map<string, Item>;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  await h.importFile(
    ada,
    jsonFeed([
      {
        id: 'evil',
        title: '<b>Title</b> & more',
        content_html:
          '<p onclick="x()" style="color:red">Hi<script>alert(1)</script></p>' +
          '<img src="/pics/a.png" onerror="alert(2)"><a href="javascript:alert(3)">j</a>' +
          '<a href="../about">about</a><iframe src="https://x.example/"></iframe>',
        date_published: '2019-04-02T11:15:00+02:00',
        date_modified: '2019-04-03T00:00:00Z',
      },
      {
        id: 'plain',
        content_text: 'Line <one> & "two"\nnext line\n\nSecond paragraph',
        date_published: '2019-04-01T00:00:00Z',
        image: 'https://cdn.example/cover.jpg',
      },
    ]),
    'application/json',
  );
  const feed = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  items = new Map(feed.items.map((i) => [i.id, i]));
});
afterAll(() => h?.stop());

it('never outputs script, on* attributes, style or javascript: URLs', async () => {
  const body = (await h.request('GET', `/imported/archive/${ada.siteId}/recent.json`)).body;
  expect(body).not.toMatch(/<script|onerror|onclick|style=|javascript:|<iframe/i);
  const search = (await h.request('GET', `/imported/archive/${ada.siteId}/search.json?q=hi`)).body;
  expect(search).not.toMatch(/<script|onerror|javascript:/i);
});

it('resolves relative URLs against the site URL and marks links nofollow', () => {
  const evil = items.get('evil')!;
  const site = new URL(ada.siteUrl);
  expect(evil.content_html).toContain(`<img src="${new URL('/pics/a.png', site).href}" />`);
  expect(evil.content_html).toContain(
    `<a href="${new URL('../about', site).href}" rel="nofollow noopener noreferrer">about</a>`,
  );
  expect(evil.image).toBe(new URL('/pics/a.png', site).href);
  expect(evil.title).toBe('<b>Title</b> & more');
  expect(evil.date_published).toBe('2019-04-02T09:15:00+00:00');
  expect(evil.date_modified).toBe('2019-04-03T00:00:00+00:00');
});

it('renders plain text as escaped paragraphs and keeps the text as content_text', () => {
  const plain = items.get('plain')!;
  expect(plain.content_html).toBe(
    '<p>Line &#60;one&#62; &#38; &#34;two&#34;<br>next line</p>\n<p>Second paragraph</p>',
  );
  expect(plain.content_text).toBe('Line <one> & "two"\nnext line\n\nSecond paragraph');
  expect(plain.image).toBe('https://cdn.example/cover.jpg');
  expect(plain.title).toBeUndefined();
});
