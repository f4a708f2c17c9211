// The private queue feeds: the URLs from GET /feeds/readlater/token work with no header at all (as a
// third-party reader fetches them), are version 1 feeds with the private headers; a wrong token, an
// unknown user and a rotated-out token get byte-identical 404s.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sendOverWire, type WireResponse } from '@murmur/testing';
import { startHarness, type Account, type Harness } from './harness.js';
import { V1 } from './jsonfeed.js';

let h: Harness;
let ada: Account;
let bob: Account;
let urls: { token: string; bookmarks_url: string; readlater_url: string };

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  const res = await h.request('GET', '/feeds/readlater/token', { token: ada.token });
  expect(res.statusCode).toBe(200);
  urls = res.json();
});
afterAll(() => h?.stop());

/** A bare GET, as a feed reader that knows nothing but the URL sends it. */
const bare = (url: string) => sendOverWire(url, { url: new URL(url).pathname });

it('hands out a ≥128-bit token and the two feed URLs, the same on every GET', async () => {
  expect(urls.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  expect(urls.bookmarks_url).toBe(`${h.publicUrl}/feeds/ada/bookmarks/${urls.token}.json`);
  expect(urls.readlater_url).toBe(`${h.publicUrl}/feeds/ada/readlater/${urls.token}.json`);
  const again = (await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json();
  expect(again).toEqual(urls);
  const bobs = (await h.request('GET', '/feeds/readlater/token', { token: bob.token })).json();
  expect(bobs.token).not.toBe(urls.token);
});

it('serves both private feeds with no request headers, as version 1 with the private headers', async () => {
  for (const [url, title] of [
    [urls.bookmarks_url, 'ada bookmarks'],
    [urls.readlater_url, 'ada read later'],
  ] as const) {
    const feed = await h.feed(new URL(url).pathname, V1);
    expect(feed.title).toBe(title);
    expect(feed.items).toEqual([]);
    const res = await bare(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=0');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['etag']).toBeDefined();
  }
});

function comparable(res: WireResponse) {
  const { date, 'x-request-id': _id, ...headers } = res.headers;
  void date;
  void _id;
  return { status: res.statusCode, headers, body: res.body };
}

it('answers a wrong token, another user’s token, an unknown user and a rotated token with the same 404', async () => {
  const wrong = await bare(`${h.publicUrl}/feeds/ada/bookmarks/${'x'.repeat(43)}.json`);
  expect(wrong.statusCode).toBe(404);
  expect(wrong.json()).toEqual({ error: 'Not found.' });
  expect(wrong.body).not.toContain(urls.token);
  const reference = comparable(wrong);

  const bobsToken = (await h.request('GET', '/feeds/readlater/token', { token: bob.token })).json().token;
  const cases = [
    `${h.publicUrl}/feeds/ada/bookmarks/${bobsToken}.json`,
    `${h.publicUrl}/feeds/nobody/bookmarks/${urls.token}.json`,
    `${h.publicUrl}/feeds/ada/readlater/${'x'.repeat(43)}.json`,
  ];
  for (const url of cases) expect(comparable(await bare(url))).toEqual(reference);

  const rotated = await h.request('POST', '/feeds/readlater/token', { token: ada.token });
  expect(rotated.statusCode).toBe(200);
  const fresh = rotated.json();
  expect(fresh.token).not.toBe(urls.token);
  expect(fresh.bookmarks_url).toBe(`${h.publicUrl}/feeds/ada/bookmarks/${fresh.token}.json`);
  expect(comparable(await bare(urls.bookmarks_url))).toEqual(reference);
  expect(comparable(await bare(urls.readlater_url))).toEqual(reference);
  expect((await bare(fresh.bookmarks_url)).statusCode).toBe(200);
  expect((await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json()).toEqual(fresh);
});
