// WXR through the strict streaming parser: a DOCTYPE (with or without entity declarations, a billion
// laughs included) fails the import without expanding anything; so do undeclared entities, bytes
// that are not UTF-8, unknown encodings, depth over 32 and documents that are not WXR. A document
// that breaks after hundreds of good items leaves none of them visible and the archive as it was.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed, wxr, type WxrItem } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  await h.importFile(ada, jsonFeed(dailyPosts(3)), 'application/json');
});
afterAll(() => h?.stop());

const laughs =
  '<!DOCTYPE rss [<!ENTITY lol "lol">' +
  Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ).join('') +
  ']>\n';
const items = (n: number): WxrItem[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `Post ${i}` }));

const cases: [string, () => Buffer | string, RegExp][] = [
  [
    'an entity declaration',
    () =>
      wxr([{ id: 1, title: '&xxe;' }], {
        prolog: '<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n',
      }),
    /DOCTYPE/,
  ],
  ['a billion laughs', () => wxr([{ id: 1, title: '&lol9;' }], { prolog: laughs }), /DOCTYPE/],
  ['a bare DOCTYPE', () => wxr(items(1), { prolog: '<!DOCTYPE rss>\n' }), /DOCTYPE/],
  ['an undeclared entity', () => wxr([{ id: 1, title: 'a &nbsp; b' }]), /not well-formed/],
  [
    'bytes that are not UTF-8',
    () =>
      Buffer.concat([
        Buffer.from(wxr([{ id: 1, title: 'ok' }]).slice(0, 400)),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(wxr([]).slice(400)),
      ]),
    /not valid UTF-8/,
  ],
  ['an unknown encoding', () => wxr(items(1), { encoding: 'EBCDIC-XYZ' }), /encoding/],
  [
    'UTF-16',
    () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(wxr(items(1)), 'utf16le')]),
    /UTF-16/,
  ],
  [
    'nesting deeper than 32',
    () =>
      wxr([{ id: 1, title: 'x', content: 'y' }]).replace(
        '<channel>',
        '<channel>' + '<a>'.repeat(40) + '</a>'.repeat(40),
      ),
    /deeper than 32/,
  ],
  ['a root that is not rss', () => '<?xml version="1.0"?><feed><item/></feed>', /not rss/],
  [
    'a break after 600 good items',
    () => wxr(items(600)).replace('</channel>', '<broken></channel>'),
    /not well-formed/,
  ],
];

for (const [what, build, reason] of cases) {
  it(`fails a WXR file with ${what}, leaving the archive as it was`, async () => {
    const before = await h.request('GET', `/imported/archive/${ada.siteId}/recent.json`);
    const state = await h.importFile(ada, build(), 'text/xml');
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(reason);
    expect(state.error).not.toMatch(/lollol|root:/);
    const after = await h.request('GET', `/imported/archive/${ada.siteId}/recent.json`);
    expect(after.body).toBe(before.body);
    expect(after.headers['etag']).toBe(before.headers['etag']);
    const years = await h.request('GET', `/imported/archive/${ada.siteId}/years.json`);
    expect(years.json()).toEqual([2015]);
    // Posts a failed import had stored (hidden) are gone, not merely hidden.
    expect(await h.store.collection('posts').countDocuments({ siteId: ada.siteId })).toBe(3);
  });
}
