// ZIP limits (docs/security.md): a `..` or absolute entry, an entry expanding more than 100:1 (a 1 GB
// bomb), a header lying about its size, more than 10,000 entries, a symbolic link or no feed.json:
// the import ends `failed` with the reason, nothing is decompressed beyond feed.json, and the site's
// archive is exactly what it was (here: none, then the earlier import).
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { blogArchiveZip, dailyPosts, jsonFeed, zip, type ZipEntry } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  await h.importFile(bob, jsonFeed(dailyPosts(3)), 'application/json');
});
afterAll(() => h?.stop());

const feedJson = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 't',
  items: [{ id: 1, content_text: 'x' }],
});

const cases: [string, () => Buffer, RegExp][] = [
  [
    'a ../evil entry',
    () =>
      zip([
        { name: 'feed.json', data: feedJson },
        { name: '../evil', data: 'x' },
      ]),
    /"\.\." path/,
  ],
  [
    'a nested ../ entry',
    () =>
      zip([
        { name: 'feed.json', data: feedJson },
        { name: 'uploads/../../x', data: 'x' },
      ]),
    /"\.\." path/,
  ],
  [
    'an absolute entry',
    () =>
      zip([
        { name: '/etc/cron.d/x', data: 'x' },
        { name: 'feed.json', data: feedJson },
      ]),
    /absolute path/,
  ],
  [
    'a backslash absolute entry',
    () =>
      zip([
        { name: 'C:\\evil', data: 'x' },
        { name: 'feed.json', data: feedJson },
      ]),
    /absolute path/,
  ],
  [
    'a 1 GB expansion',
    () => {
      const entry: ZipEntry = {
        name: 'uploads/zeros.bin',
        data: Buffer.alloc(1024 * 1024),
        declaredSize: 1024 ** 3,
      };
      return zip([{ name: 'feed.json', data: feedJson }, entry]);
    },
    /expands more than 100:1/,
  ],
  [
    'an entry of ratio over 100:1',
    () =>
      zip([
        { name: 'feed.json', data: feedJson },
        { name: 'uploads/a.txt', data: Buffer.alloc(200_000) },
      ]),
    /expands more than 100:1/,
  ],
  [
    'a feed.json bigger than its header says',
    () => {
      const real = JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 't',
        items: [{ id: 1, content_text: 'y'.repeat(5000) }],
      });
      return zip([{ name: 'feed.json', data: real, declaredSize: 200 }]);
    },
    /feed\.json cannot be read|larger than its header/,
  ],
  [
    'more than 10,000 entries',
    () =>
      zip([
        { name: 'feed.json', data: feedJson },
        ...Array.from({ length: 10_000 }, (_, i) => ({ name: `u/${i}`, method: 'store' as const })),
      ]),
    /more than 10000 entries/,
  ],
  [
    'a symbolic link',
    () =>
      zip([
        { name: 'feed.json', data: feedJson },
        { name: 'link', data: '/etc/passwd', method: 'store', mode: 0o120777 },
      ]),
    /symbolic link/,
  ],
  [
    'no feed.json',
    () =>
      zip([
        { name: 'index.html', data: '<p>x</p>' },
        { name: 'other/feed.json', data: feedJson },
        { name: 'x/y', data: '1' },
      ]),
    /no feed\.json/,
  ],
  ['not a ZIP at all', () => Buffer.from('PK nothing here'), /Not a readable ZIP/],
];

for (const [what, build, reason] of cases) {
  it(`refuses a ZIP with ${what}: failed, nothing visible`, async () => {
    for (const who of [ada, bob]) {
      const before = await h.request('GET', `/imported/archive/${who.siteId}/recent.json`);
      const state = await h.importFile(who, build(), 'application/zip');
      expect(state).toMatchObject({ status: 'failed', imported: 0 });
      expect(state.error).toMatch(reason);
      const after = await h.request('GET', `/imported/archive/${who.siteId}/recent.json`);
      expect(after.statusCode).toBe(before.statusCode);
      expect(after.body).toBe(before.body);
      expect(after.headers['etag']).toBe(before.headers['etag']);
    }
  });
}

it('still imports a well-formed archive afterwards', async () => {
  expect(deflateRawSync(Buffer.alloc(10)).length).toBeGreaterThan(0);
  const state = await h.importFile(ada, blogArchiveZip(), 'application/zip');
  expect(state.status).toBe('complete');
});
