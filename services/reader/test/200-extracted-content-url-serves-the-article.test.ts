// `extracted_content_url` (docs/api/reader.md "Extracted content"): an entry with a web link carries a
// signed address on this service; fetched with no credentials, as clients fetch Feedbin's extract
// service, it answers the article behind the link (extracted by the real feeds service over the bus,
// sanitised), once per entry however often it is opened. A wrong signature, another entry's signature,
// an entry without a link and a page without an article each answer 404.
import type { BaseConfig } from '@murmur/core';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { send, testLogger } from '@murmur/testing';
import { createFeedsService } from '@murmur/feeds';
import { ExtractLinks } from '../src/domain/extracts.js';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { PUBLIC_URL, startReader, type Harness, type TestUser } from './harness.js';

const ARTICLE = `<!doctype html><html><head><title>Engines of the Past | News</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Engines of the Past</h1>
<p>The analytical engine was designed by Charles Babbage in the nineteenth century, and it was the first
design for a general-purpose computer. Ada Lovelace wrote what is considered the first program for it.</p>
<p>Its design included an arithmetic logic unit, control flow in the form of conditional branching and
loops, and integrated memory, making it the first design for a general-purpose computer that could be
described in modern terms as Turing-complete.</p>
<script>alert('x')</script><img src="/engine.png" onerror="alert(1)">
<p>It was not until 1941 that the first general-purpose computer was actually built, more than a century after
Babbage had proposed the analytical engine in 1837. The story of the engine is the story of ambition.</p>
</article><footer>Copyright News</footer></body></html>`;

const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>/</link>
<item><title>Engines</title><guid>e1</guid><link>/engines.html</link><description>Short.</description></item>
<item><title>Gone</title><guid>e2</guid><link>/gone.html</link><description>Short.</description></item>
<item><title>No link</title><guid isPermaLink="false">e3</guid><description>Just text.</description></item>
</channel></rss>`;

let h: Harness;
let pages: FeedServer;
let feedsService: RunningService<BaseConfig>;
let feedsStore: Store;
let ann: TestUser;
let entries: Array<{ id: number; title: string; extracted_content_url: string | null }>;

beforeAll(async () => {
  h = await startReader();
  pages = await startFeedServer({ fixtures: false });
  pages.set('/feed.xml', { headers: { 'content-type': 'application/rss+xml' }, body: FEED });
  pages.set('/engines.html', { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE });
  feedsStore = await openStore('memory:', { service: 'feeds' });
  feedsService = await startService(createFeedsService({ jobPollIntervalMs: 50 }), {
    env: {
      STORE_URL: 'memory:',
      BUS_URL: 'memory:unused',
      PUBLIC_URL,
      LOG_LEVEL: 'silent',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    },
    store: feedsStore,
    bus: h.bus,
    logger: testLogger(),
    clock: h.clock,
    port: 0,
    host: '127.0.0.1',
  });
  ann = h.identity.addUser('ann');
  await h.subscribe(ann, pages.url('/feed.xml'));
  entries = (await h.get(ann, '/feeds/v2/entries.json')).json();
}, 60_000);

afterAll(async () => {
  await feedsService?.stop();
  await feedsStore?.close();
  await h?.stop();
  await pages?.close();
});

const entry = (title: string) => entries.find((e) => e.title === title)!;
/** The path of an extracted-content URL, fetched from the reader with no credentials. */
const fetchExtract = (url: string) => send(h.url, { url: url.slice(PUBLIC_URL.length) });

it('an entry with a web link carries a signed address under the public URL; one without has null', () => {
  const engines = entry('Engines');
  expect(engines.extracted_content_url).toMatch(
    new RegExp(`^${PUBLIC_URL}/feeds/v2/extract/${engines.id}/[A-Za-z0-9_-]{22}\\.json$`),
  );
  expect(entry('No link').extracted_content_url).toBeNull();
});

it('the address answers the sanitised article, without credentials, fetching the page once', async () => {
  const url = entry('Engines').extracted_content_url!;
  const res = await fetchExtract(url);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const article = res.json();
  expect(article).toMatchObject({
    title: expect.stringContaining('Engines of the Past'),
    url: pages.url('/engines.html'),
    domain: '127.0.0.1',
    dek: null,
    lead_image_url: null,
    next_page_url: null,
    direction: 'ltr',
    total_pages: 1,
    rendered_pages: 1,
  });
  expect(article.content).toContain('Ada Lovelace wrote what is considered the first program');
  expect(article.content).not.toMatch(/<script|onerror|alert/);
  expect(article.content).not.toContain('Copyright News');
  expect(article.word_count).toBeGreaterThan(80);
  expect(article.date_published).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  const again = await fetchExtract(url);
  expect(again.statusCode).toBe(200);
  expect(again.json()).toEqual(article);
  expect(pages.hits('/engines.html')).toBe(1);
});

it('a changed signature, or one entry’s signature on another entry, is 404 and fetches nothing', async () => {
  const url = entry('Engines').extracted_content_url!;
  const signature = url.slice(url.lastIndexOf('/') + 1, -'.json'.length);
  const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
  const before = pages.requests.length;
  for (const path of [
    `/feeds/v2/extract/${entry('Engines').id}/${flipped}.json`,
    `/feeds/v2/extract/${entry('Gone').id}/${signature}.json`,
    `/feeds/v2/extract/999999/${signature}.json`,
    `/feeds/v2/extract/${entry('Engines').id}/short.json`,
  ]) {
    const res = await send(h.url, { url: path });
    expect(res.statusCode).toBe(404);
  }
  expect(pages.requests.length).toBe(before);
});

it('a page that cannot be fetched is a 404 naming why, remembered for an hour', async () => {
  const url = entry('Gone').extracted_content_url!;
  const res = await fetchExtract(url);
  expect(res.statusCode).toBe(404);
  expect(res.body).toContain('the page answered 404');
  await fetchExtract(url);
  expect(pages.hits('/gone.html')).toBe(1);

  pages.set('/gone.html', { headers: { 'content-type': 'text/html' }, body: ARTICLE });
  h.clock.advance(61 * 60_000);
  const later = await fetchExtract(url);
  expect(later.statusCode).toBe(200);
  expect(pages.hits('/gone.html')).toBe(2);
});

it('the signing key is kept in the store: a restarted reader signs the same address', async () => {
  const reopened = await ExtractLinks.open(h.ctx.store, PUBLIC_URL);
  const engines = entry('Engines');
  expect(reopened.urlFor({ _id: engines.id, url: pages.url('/engines.html') })).toBe(
    engines.extracted_content_url,
  );
});

it('READER_EXTRACTED_CONTENT=false: every address is null and the path answers 404', async () => {
  const off = await startReader({ READER_EXTRACTED_CONTENT: 'false' });
  try {
    const user = off.identity.addUser('ann');
    await off.subscribe(user, pages.url('/feed.xml'));
    const list: typeof entries = (await off.get(user, '/feeds/v2/entries.json')).json();
    expect(list).toHaveLength(3);
    expect(list.map((e) => e.extracted_content_url)).toEqual([null, null, null]);
    const path = entry('Engines').extracted_content_url!.slice(PUBLIC_URL.length);
    expect((await send(off.url, { url: path })).statusCode).toBe(404);
  } finally {
    await off.stop();
  }
});
