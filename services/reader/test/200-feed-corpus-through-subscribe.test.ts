// The fidelity corpus (corpus.ts): every fixture served from a local server, subscribed to through the
// Feedbin API, and its first entry (or the one named) compared field by field with what it must be;
// no entry's stored content may keep markup that can run script.
import { describe, expect, test } from '@jest/globals';
import { scriptCapable } from '../../../test-e2e/support/fuzz.js';
import { CORPUS } from './corpus.js';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

type Entry = Record<string, any>;

describe('the fixture corpus through POST subscriptions.json', () => {
  test.each(CORPUS.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const path = `/corpus/${i}`;
    feeds.set(path, { body: c.body(), headers: { 'content-type': c.contentType } });
    const sub = await h.subscribe(ann, feeds.url(path));
    if (c.feedTitle !== undefined) expect(sub.title).toBe(c.feedTitle);
    const list: Entry[] = (
      await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json?mode=extended`)
    ).json();
    const withOrigin = (v: string | null | undefined) =>
      typeof v === 'string' ? v.replaceAll('{origin}', feeds.origin) : v;
    const byUrl = c.entry.url ? list.find((e) => e.url === withOrigin(c.entry.url)) : undefined;
    const entry = c.pick === undefined ? (byUrl ?? list[0]) : list.find((e) => e.title === c.pick);
    expect(entry).toBeDefined();
    const want = c.entry;
    if ('title' in want) expect(entry!.title).toBe(want.title);
    if ('url' in want) expect(entry!.url).toBe(withOrigin(want.url));
    if ('author' in want) expect(entry!.author).toBe(want.author);
    if (want.published !== undefined) expect(entry!.published).toBe(want.published);
    if ('content' in want) expect(entry!.content).toBe(withOrigin(want.content));
    if (want.summary !== undefined) expect(entry!.summary).toContain(want.summary);
    // Whatever the fixture carries (script, event handlers, iframes), no stored content can run script.
    for (const e of list) expect(e.content === null ? null : scriptCapable(e.content)).toBeNull();
  });
});
