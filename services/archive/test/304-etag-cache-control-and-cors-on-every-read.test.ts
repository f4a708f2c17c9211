// Every read sends an ETag (changed by a completed import), `Cache-Control: public, max-age=300` and
// `Access-Control-Allow-Origin: *`; If-None-Match with the ETag → 304 without a body.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  await h.importFile(ada, jsonFeed(dailyPosts(5)), 'application/json');
});
afterAll(() => h?.stop());

const paths = () =>
  ['recent.json', 'recent.json?offset=25', 'search.json?q=entry', 'years.json', '2015/1.json'].map(
    (p) => `/imported/archive/${ada.siteId}/${p}`,
  );

it('answers If-None-Match with the ETag by 304, with the caching and CORS headers', async () => {
  for (const path of paths()) {
    for (const origin of [h.url, h.archive.url]) {
      const first = await fetch(origin + path, { headers: { origin: 'https://ada.example' } });
      expect(first.status).toBe(200);
      expect(first.headers.get('access-control-allow-origin')).toBe('*');
      expect(first.headers.get('cache-control')).toBe('public, max-age=300');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await h.request('GET', path, { headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['etag']).toBe(etag);
      const other = await h.request('GET', path, { headers: { 'if-none-match': '"nope"' } });
      expect(other.statusCode).toBe(200);
    }
  }
});

it('changes the ETag of every read when an import completes, and not otherwise', async () => {
  const before = await Promise.all(paths().map(async (p) => (await h.request('GET', p)).headers['etag']));
  const still = await Promise.all(paths().map(async (p) => (await h.request('GET', p)).headers['etag']));
  expect(still).toEqual(before);
  await h.importFile(ada, jsonFeed(dailyPosts(6)), 'application/json');
  for (const [i, path] of paths().entries()) {
    const res = await h.request('GET', path, { headers: { 'if-none-match': before[i] as string } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['etag']).not.toBe(before[i]);
  }
});
