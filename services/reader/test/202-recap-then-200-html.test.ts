// POST /feeds/recap: 202 while one job builds it, then 200 with the cached fragment (reading-recap
// blocks per feed, every value escaped); reset=1 builds again; bad bodies → 400 {"error"}.
import { describe, expect, test } from '@jest/globals';
import { reader } from '@murmur/contracts';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
let ids: number[];

const recapJobs = () => h.store.collection('jobs').countDocuments({ type: 'reader.recap.build' });
const recap = (body: unknown, query = '', headers: Record<string, string> = {}) =>
  h.req(ann, 'POST', `/feeds/recap${query}`, body as object, { accept: 'text/html', ...headers });

useReaderWithFeedServer(async (started) => {
  ({ h, feeds, ann } = started);
  feeds.set('/tricky.xml', {
    body: rssWithItems('Tricky &lt;b&gt;feed&lt;/b&gt;', [
      { guid: 't1', title: 'A &lt;script&gt;alert(1)&lt;/script&gt; title' },
      { guid: 't2', title: 'Less &amp;lt;b&amp;gt; is more' },
    ]),
  });
  await h.subscribe(ann, feeds.url('/rss2.xml'));
  await h.subscribe(ann, feeds.url('/tricky.xml'));
  ids = (await h.get(ann, '/feeds/v2/entries.json')).json().map((e: { id: number }) => e.id);
});

describe('building and caching', () => {
  test('first POST → 202 text/html and one job; repeats queue nothing more; then 200 with the recap', async () => {
    const first = await recap(ids);
    expect(first.statusCode).toBe(202);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.body).toContain('Preparing');
    expect(await recapJobs()).toBe(1);
    await recap([...ids].reverse());
    expect(await recapJobs()).toBe(1);
    await h.idle();

    const ready = await recap(ids);
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = ready.body;
    const blocks = html.match(
      /<div class="reading-recap" data-color-light="#[0-9a-f]{6}" data-color-dark="#[0-9a-f]{6}">/g,
    );
    expect(blocks).toHaveLength(2);
    expect(html).not.toMatch(/<html|<head|<body/);
    expect(html).toContain(`<a href="${feeds.url('/2026/11/notes')}">Release notes</a>`);
    expect(html).toContain('First episode. It is about feeds.');
    expect(html).toMatch(/\d+ min read/);
    expect(html).toContain('Tricky feed');
    // Titles are text: markup in them is dropped, and what reads like markup is escaped.
    expect(html).toContain('>A alert(1) title</a>');
    expect(html).toContain('>Less &#60;b&#62; is more</a>');
    expect(html).not.toContain('<script');
  });

  test('the same ids as {"ids": …} or a form answer from the same cache', async () => {
    expect((await recap({ ids })).statusCode).toBe(200);
    const form = ids.map((id) => `ids[]=${id}`).join('&');
    const res = await recap(form, '', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
    expect(await recapJobs()).toBe(1);
  });

  test('invisible ids are dropped: the visible subset is its own recap', async () => {
    const res = await recap([ids[0], 999_999]);
    expect(res.statusCode).toBe(202);
    await h.idle();
    const again = await recap([ids[0]]);
    expect(again.statusCode).toBe(200);
    expect(again.body.match(/class="reading-recap"/g)).toHaveLength(1);
  });

  test('reset=1 drops the cached recap and queues a new build', async () => {
    const before = await recapJobs();
    const res = await recap(ids, '?reset=1');
    expect(res.statusCode).toBe(202);
    expect(await recapJobs()).toBe(before + 1);
    await h.idle();
    expect((await recap(ids)).statusCode).toBe(200);
  });
});

describe('without a summariser', () => {
  test('the reader answers usingAi: false over the bus', async () => {
    expect(await h.bus.request(reader.recapCapabilities, {})).toEqual({ usingAi: false });
  });
});

describe('bad requests → 400 {"error"}', () => {
  test.each([
    ['an empty array', []],
    ['a string', 'not-an-array'],
    ['an object without ids', { entries: [1] }],
    ['non-integer ids', ['a', 'b']],
    ['1001 ids', Array.from({ length: 1001 }, (_, i) => i + 1)],
    ['only invisible ids', [999_998, 999_999]],
  ])('%s', async (_what, body) => {
    const before = await recapJobs();
    const res = await recap(typeof body === 'string' ? JSON.stringify(body) : body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect(await recapJobs()).toBe(before);
  });
});
