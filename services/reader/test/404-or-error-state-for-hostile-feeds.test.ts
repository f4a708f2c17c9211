// Hostile or broken feed bodies (docs/api/reader.md "Parsing"): a 50 MB feed, XML nested 100,000 deep,
// a billion-laughs document, an unknown charset, binary garbage and a truncated document. Subscribing
// to one answers 404; a subscribed feed that turns into one is left in its error state (last_error
// names the problem, entries kept); the reader keeps answering and reading other feeds.
import { describe, expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

const GOOD = rssWithItems('Good', [{ guid: 'g1', title: 'Good one' }]);

/** Deterministic bytes that are no format at all (a linear congruential generator). */
function garbage(length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = 12345;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const BILLION_LAUGHS =
  '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' +
  Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('\n') +
  '\n]>\n<rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title></item></channel></rss>';

const CASES: Array<[string, () => Buffer, string, RegExp]> = [
  [
    'a 50 MB feed',
    () =>
      Buffer.from(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title><item><title>x</title><description>${'a'.repeat(50 * 1024 * 1024)}</description></item></channel></rss>`,
      ),
    'application/rss+xml',
    /larger than 15728640 bytes/,
  ],
  [
    'XML nested 100,000 deep',
    () =>
      Buffer.from(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep</title><item><title>x</title><x>${'<a>'.repeat(100_000)}deep${'</a>'.repeat(100_000)}</x></item></channel></rss>`,
      ),
    'application/rss+xml',
    /nested deeper than 1000 elements/,
  ],
  [
    'a billion-laughs document',
    () => Buffer.from(BILLION_LAUGHS),
    'application/xml',
    /DOCTYPE internal subset/,
  ],
  [
    'an unknown charset',
    () =>
      Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="x-klingon"?><rss version="2.0"><channel><title>'),
        Buffer.from([0xe9, 0xe8, 0xff, 0xfe, 0x80]),
        Buffer.from('</title></channel></rss>'),
      ]),
    'application/rss+xml',
    /unknown charset "x-klingon"/,
  ],
  ['binary garbage', () => garbage(64 * 1024), 'application/rss+xml', /not a feed/],
  [
    'a truncated document',
    () => Buffer.from(GOOD.slice(0, Math.floor(GOOD.length * 0.6))),
    'application/rss+xml',
    /never closed/,
  ],
];

describe('hostile and broken feeds', () => {
  test.each(CASES.map((c, i) => [...c, i] as const))(
    '%s: subscribing answers 404',
    async (_name, body, contentType, _error, i) => {
      feeds.set(`/bad/${i}`, { body: body(), headers: { 'content-type': contentType } });
      const res = await h.req(ann, 'POST', '/feeds/v2/subscriptions.json', {
        feed_url: feeds.url(`/bad/${i}`),
      });
      expect(res.statusCode).toBe(404);
    },
  );

  test.each(CASES.map((c, i) => [...c, i] as const))(
    '%s: a subscribed feed turning into it is left in its error state, entries kept',
    async (_name, body, contentType, error, i) => {
      const path = `/turns-bad/${i}`;
      feeds.set(path, { body: GOOD });
      const sub = await h.subscribe(ann, feeds.url(path));
      feeds.set(path, { body: body(), headers: { 'content-type': contentType } });
      await h.refresh(sub.feed_id);
      const state = (await h.get(ann, `/feeds/v2/subscriptions/${sub.id}.json?mode=extended`)).json();
      expect(state.last_error).toMatch(error);
      const entries = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json();
      expect(entries.map((e: { title: string }) => e.title)).toEqual(['Good one']);
    },
  );

  test('after all of them the reader still reads a good feed', async () => {
    feeds.set('/still-good.xml', { body: rssWithItems('Still good', [{ guid: 's1', title: 'Alive' }]) });
    const sub = await h.subscribe(ann, feeds.url('/still-good.xml'));
    const entries = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json();
    expect(entries[0].title).toBe('Alive');
  });
});
