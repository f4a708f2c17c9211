// A site moves its feed: the old URL answers 301 (or 308) to the new one, which answers the conditional
// GET with 304 (same content, same validators). The stored feed URL moves with the redirect, so the
// next poll goes straight to the new URL and subscribers see the new `feed_url`.
import { expect, test } from '@jest/globals';
import { fixture, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

test.each([301, 308])('%i to a URL answering 304: the feed URL moves there', async (status) => {
  const oldPath = `/moving-${status}.xml`;
  const newPath = `/moved-${status}.xml`;
  // Same content and validators at both URLs; conditional requests with them get 304.
  const served = ({ headers }: { headers: Record<string, unknown> }) =>
    headers['if-none-match'] === '"same"'
      ? { status: 304 }
      : { body: fixture('rss2.xml'), headers: { etag: '"same"', 'content-type': 'application/rss+xml' } };
  feeds.set(oldPath, served);
  const sub = await h.subscribe(ann, feeds.url(oldPath));
  expect(sub.feed_url).toBe(feeds.url(oldPath));
  const entries = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json().length;

  feeds.set(oldPath, { status, headers: { location: newPath } });
  feeds.set(newPath, served);
  await h.refresh(sub.feed_id);
  const atNew = feeds.requests.filter((r) => r.path === newPath);
  expect(atNew).toHaveLength(1);
  expect(atNew[0]!.headers['if-none-match']).toBe('"same"');

  const shown = (await h.get(ann, `/feeds/v2/subscriptions/${sub.id}.json?mode=extended`)).json();
  expect(shown.feed_url).toBe(feeds.url(newPath));
  expect(shown.last_error).toBeNull();
  expect((await h.get(ann, '/feeds/v2/subscriptions.json')).json()).toContainEqual(
    expect.objectContaining({ id: sub.id, feed_url: feeds.url(newPath) }),
  );
  expect((await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json()).toHaveLength(entries);

  // The next poll asks the new URL directly.
  const oldHits = feeds.hits(oldPath);
  h.clock.advance(60_000);
  await h.refresh(sub.feed_id);
  expect(feeds.hits(oldPath)).toBe(oldHits);
  expect(feeds.hits(newPath)).toBe(2);
});

test('a 302 to a URL answering 304 keeps the old URL', async () => {
  const served = ({ headers }: { headers: Record<string, unknown> }) =>
    headers['if-none-match'] === '"t"'
      ? { status: 304 }
      : { body: fixture('atom.xml'), headers: { etag: '"t"', 'content-type': 'application/atom+xml' } };
  feeds.set('/temp-old.xml', served);
  const sub = await h.subscribe(ann, feeds.url('/temp-old.xml'));
  feeds.set('/temp-old.xml', { status: 302, headers: { location: '/temp-new.xml' } });
  feeds.set('/temp-new.xml', served);
  await h.refresh(sub.feed_id);
  expect(feeds.hits('/temp-new.xml')).toBe(1);
  const shown = (await h.get(ann, `/feeds/v2/subscriptions/${sub.id}.json`)).json();
  expect(shown.feed_url).toBe(feeds.url('/temp-old.xml'));
});
