// Every feed GET carries ETag and Last-Modified; If-None-Match with the ETag → 304 (no body), as does
// If-Modified-Since with the Last-Modified; a change gives a new ETag and a 200.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feedWhen, startHarness, type Account, type Harness } from './harness.js';
import { V1 } from './jsonfeed.js';

let h: Harness;
let ada: Account;
let privatePath: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  await h.postEvent('published', {
    id: 1,
    userId: ada.id,
    photos: ['https://img.example/1.jpg'],
    mentions: [{ userId: ada.id, username: 'ada' }],
  });
  await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 1);
  privatePath = new URL(
    (await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json().bookmarks_url,
  ).pathname;
  // Last-Modified is announced only once the second of the last change is over.
  await new Promise((r) => setTimeout(r, 1100));
});
afterAll(() => h?.stop());

const paths = () => [
  '/feeds/ada.json',
  '/feeds/ada/mentions.json',
  '/feeds/ada/webmentions.json',
  '/feeds/photos.json',
  '/blogroll.org.json',
  privatePath,
];

it('answers If-None-Match with the ETag by 304 on every feed', async () => {
  for (const path of paths()) {
    const first = await h.request('GET', path);
    expect(first.statusCode).toBe(200);
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^"[^"]+"$/);
    const second = await h.request('GET', path, { headers: { 'if-none-match': etag as string } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
    expect(second.headers['etag']).toBe(etag);
    const other = await h.request('GET', path, { headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
  }
});

it('answers If-Modified-Since with the Last-Modified by 304', async () => {
  for (const path of paths()) {
    const first = await h.request('GET', path);
    const lastModified = first.headers['last-modified'];
    expect(lastModified).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
    const again = await h.request('GET', path, { headers: { 'if-modified-since': lastModified as string } });
    expect(again.statusCode).toBe(304);
    const older = new Date(Date.parse(lastModified as string) - 60_000).toUTCString();
    expect((await h.request('GET', path, { headers: { 'if-modified-since': older } })).statusCode).toBe(200);
  }
});

it('changes the ETag when the feed changes', async () => {
  const before = await h.feed('/feeds/ada.json');
  const etag = before.response.headers['etag'] as string;
  await h.postEvent('published', { id: 2, userId: ada.id });
  const after = await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 2);
  expect(after.response.headers['etag']).not.toBe(etag);
  expect((await h.request('GET', '/feeds/ada.json', { headers: { 'if-none-match': etag } })).statusCode).toBe(
    200,
  );
  // The private feed too, after a bookmark.
  const p1 = await h.feed(privatePath, V1);
  await h.request('POST', '/posts/bookmarks', { token: ada.token, body: { id: 1 } });
  const p2 = await h.feed(privatePath, V1);
  expect(p2.items).toHaveLength(1);
  expect(p2.response.headers['etag']).not.toBe(p1.response.headers['etag']);
});
