// Saved pages are read without holding the event loop (docs/security.md, "Parsing fetched documents";
// issue 37): a read-later article is extracted (Readability over a whole DOM) in the service's parser
// thread within a time budget (ARTICLE_PARSE_TIMEOUT_MS; shortened here) — a page needing longer is a
// failed save keeping the page's title, the service answering meanwhile — and a bookmark's title, site
// name and audio come from a sliced tag scan of the page's top.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FETCH_LIMITS } from '@murmur/fetch';
import { readPageInfo } from '../src/domain/pages.js';
import { feedWhen, startHarness, type Account, type Harness } from './harness.js';
import { V1 } from './jsonfeed.js';
import { ARTICLE_HTML, startPageServer, type PageServer } from './pages.js';

const PARAGRAPH =
  '<p>Lorem ipsum dolor sit amet, <a href="https://example.com/x">consectetur</a> adipiscing elit, sed do ' +
  'eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>\n';
/** An ordinary article, only long (4.5 MB, under the 5 MB page limit): Readability takes seconds over it. */
const LONG_READ = `<!doctype html><html><head><title>A long read</title></head><body><article><h1>A long read</h1>${PARAGRAPH.repeat(30_000)}</article></body></html>`;

let h: Harness;
let ada: Account;
let pages: PageServer;
let readlaterPath: string;

beforeAll(async () => {
  h = await startHarness({ articleParseTimeoutMs: 1_000 });
  ada = await h.createUser('ada');
  pages = await startPageServer({
    '/long': { type: 'text/html; charset=utf-8', body: LONG_READ },
    '/engines': { type: 'text/html; charset=utf-8', body: ARTICLE_HTML },
  });
  readlaterPath = new URL(
    (await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json().readlater_url,
  ).pathname;
});
afterAll(async () => {
  await h?.stop();
  await pages?.close();
});

const save = (path: string) =>
  h.request('POST', '/feeds/readlater', { token: ada.token, body: { url: `${pages.url}${path}` } });

describe('read later', () => {
  it('an article that takes longer than its budget to extract: a failed save keeping the page title', async () => {
    expect((await save('/long')).statusCode).toBe(200);
    const feed = await feedWhen(h, readlaterPath, (f) => f.items.some((i) => i.title === 'A long read'), V1);
    const item = feed.items.find((i) => i.url === `${pages.url}/long`)!;
    expect(item.title).toBe('A long read');
    expect(item.content_html ?? '').not.toContain('Lorem ipsum');
  }, 60_000);

  it('sanity: an ordinary article is extracted within the same budget', async () => {
    expect((await save('/engines')).statusCode).toBe(200);
    const feed = await feedWhen(
      h,
      readlaterPath,
      (f) => f.items.some((i) => (i.content_html ?? '').includes('Charles Babbage')),
      V1,
    );
    expect(feed.items.find((i) => i.url === `${pages.url}/engines`)!.title).toMatch(/^Engines of the Past/);
  }, 60_000);
});

describe("a bookmark's page", () => {
  it('100,000 nested <div>: title, site name and audio are read while the event loop keeps turning', async () => {
    const page =
      '<!doctype html><html><head><title>Episode 12</title><meta property="og:site_name" content="The Show">' +
      `</head><body>${'<div>'.repeat(100_000)}<audio><source src="/ep12.mp3" type="audio/mpeg"></audio></body></html>`;
    let turns = 0;
    let running = true;
    const spin = () => {
      if (!running) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const info = await readPageInfo({
      status: 200,
      url: 'https://show.example/12',
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: Buffer.from(page),
      redirects: [],
      permanentRedirect: false,
      truncated: false,
    });
    running = false;
    expect(info).toEqual({
      title: 'Episode 12',
      siteName: 'The Show',
      audio: { url: 'https://show.example/ep12.mp3', mimeType: 'audio/mpeg' },
    });
    expect(turns).toBeGreaterThanOrEqual(10);
    expect(FETCH_LIMITS.page.maxBytes).toBeGreaterThan(page.length);
  });
});
