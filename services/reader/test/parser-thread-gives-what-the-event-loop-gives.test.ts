// Parsing and deriving on the reader's parser thread (feeds/parsing.ts, READER_PARSE_THREAD) must change
// where the work runs, never what comes of it: every document of the fidelity corpus gives the same
// parse and the same entry fields (hashes included, so a re-poll after switching stores nothing again)
// on the thread as on the event loop. A document the thread cannot finish is a refusal recorded on the
// feed, as a malformed one is; and the event loop stays free while a large feed parses.
import { afterAll, describe, expect, test } from '@jest/globals';
import { itemSourcesOf } from '../src/feeds/entries.js';
import { parseFetched } from '../src/feeds/parse.js';
import { parsingHere, ThreadParsing } from '../src/feeds/parsing.js';
import { refreshFeed } from '../src/jobs/refresh.js';
import { CORPUS } from './corpus.js';
import { rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { startReader, type Harness } from './harness.js';

const thread = new ThreadParsing();
let h: Harness | undefined;
let feeds: FeedServer | undefined;

afterAll(async () => {
  await thread.close();
  await h?.stop();
  await feeds?.close();
});

const URL_OF = 'https://corpus.example/feed';

describe('the parser thread', () => {
  test.each(CORPUS.map((c) => [c.name, c] as const))('%s: the same parse and entry fields', async (_, c) => {
    const body = c.body();
    const here = await parseFetched(body, c.contentType, URL_OF);
    const there = await thread.parse(body, c.contentType, URL_OF);
    expect(there).toEqual(here);
    if (here.kind !== 'feed' || there.kind !== 'feed') return;
    const sources = itemSourcesOf(here.feed.items, URL_OF);
    expect(sources.length).toBeGreaterThan(0);
    expect(await thread.derive(sources)).toEqual(await parsingHere.derive(sources));
  });

  test('a body that is not a usable feed is refused with the same message', async () => {
    const body = Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><item><title>x');
    const here = await parseFetched(body, 'application/rss+xml', URL_OF).catch((err: Error) => err.message);
    const there = await thread.parse(body, 'application/rss+xml', URL_OF).catch((err: Error) => err.message);
    expect(typeof here).toBe('string');
    expect(there).toBe(here);
  });

  test('the event loop is free while a 6 MB feed parses there', async () => {
    // Each title appears twice (the title and the description's text): about 2.4 KB an item.
    const items = Array.from({ length: 2500 }, (_, i) => ({
      guid: `big${i}`,
      title: `Item ${i} ${'Some words of a long article. '.repeat(40)}`,
    }));
    const body = Buffer.from(rssWithItems('Big', items));
    expect(body.length).toBeGreaterThan(6_000_000);
    let worst = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    try {
      const parsed = await thread.parse(body, 'application/rss+xml', URL_OF);
      // The parser keeps a document's first 1,000 items.
      expect(parsed.kind === 'feed' && parsed.feed.items).toHaveLength(1000);
    } finally {
      clearInterval(probe);
    }
    // What is left here is the copy of the body and the JSON of the answer, not the parse.
    console.log(`event loop held at most ${worst.toFixed(1)} ms while a 6 MB feed parsed on the thread`);
    expect(worst).toBeLessThan(250);
  });

  test('a document the thread cannot finish in time is recorded on the feed as a refusal', async () => {
    h = await startReader();
    feeds = await startFeedServer();
    const ann = h.identity.addUser('ann');
    feeds.set('/slow.xml', { body: rssWithItems('Slow', [{ guid: 'a', title: 'A' }]) });
    const sub = await h.subscribe(ann, feeds.url('/slow.xml'));
    const real = h.ctx.parsing;
    const hurried = new ThreadParsing({ timeoutMs: 1 });
    h.ctx.parsing = hurried;
    try {
      const many = Array.from({ length: 3000 }, (_, i) => ({ guid: `s${i}`, title: `S ${i}` }));
      feeds.set('/slow.xml', { body: rssWithItems('Slow', many) });
      expect(await refreshFeed(h.ctx, sub.feed_id)).toBe('failed');
    } finally {
      h.ctx.parsing = real;
      await hurried.close();
    }
    const feed = await h.ctx.store.feedById(sub.feed_id);
    expect(feed!.lastError).toMatch(/could not be parsed: parsing took longer than 1 ms/);
    // Nothing of the document was stored; the next poll (on the real thread) stores it.
    expect((await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json()).toHaveLength(1);
    expect(await refreshFeed(h.ctx, sub.feed_id)).toBe('stored');
    expect((await h.ctx.store.feedById(sub.feed_id))!.lastError).toBeNull();
  });

  test('a reader started with READER_PARSE_THREAD=true subscribes and polls through its thread', async () => {
    const own = await startReader({ READER_PARSE_THREAD: 'true' });
    const server = await startFeedServer();
    try {
      expect(own.ctx.parsing).toBeInstanceOf(ThreadParsing);
      const bob = own.identity.addUser('bob');
      server.set('/t.xml', { body: rssWithItems('Threaded', [{ guid: 'a', title: 'A' }]) });
      const sub = await own.subscribe(bob, server.url('/t.xml'));
      server.set('/t.xml', {
        body: rssWithItems('Threaded', [
          { guid: 'b', title: 'B new' },
          { guid: 'a', title: 'A' },
        ]),
      });
      expect(await refreshFeed(own.ctx, sub.feed_id)).toBe('stored');
      const entries = (await own.get(bob, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json() as {
        title: string;
        summary: string;
      }[];
      expect(entries.map((e) => e.title)).toEqual(['B new', 'A']);
      expect(entries[0]!.summary).toBe('B new body.');
    } finally {
      await own.stop();
      await server.close();
    }
  });
});
