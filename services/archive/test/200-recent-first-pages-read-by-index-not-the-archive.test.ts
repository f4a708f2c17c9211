// The first pages of recent.json are read through the store's index on the posts' dates, newest first,
// and stop at the page: a replica's first read of a site (the importing process builds its read model
// at once; others, and a restarted one, have none) costs the page, not the archive (issue 38: every list
// reads its newest N by an index). Counted as the documents the embedded SQLite engine reads from
// `posts` (documentsExamined), not timed. Deep pages, search, years and months use the site's read
// model (domain/site-index.ts), built on their first use.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { RunningService } from '@murmur/runtime';
import { documentsExamined } from '@murmur/store-embedded';
import type { ArchiveConfig } from '../src/index.js';
import { sendOverWire } from '@murmur/testing';
import { dailyPosts, jsonFeed, type FeedItem } from './fixtures.js';
import { ids, startHarness, type Account, type Harness } from './harness.js';

let dir: string;
let h: Harness;
let ada: Account;
let replica: RunningService<ArchiveConfig>;
const TOTAL = 300;

/** A JSON Feed page from the second replica. */
async function feed(path: string) {
  const res = await sendOverWire(replica.url, { url: path });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: { id: string }[]; next_url?: string };
}
const idsOf = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

async function reads<T>(request: () => Promise<T>): Promise<{ answer: T; read: number }> {
  const before = documentsExamined('posts');
  const answer = await request();
  return { answer, read: documentsExamined('posts') - before };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-archive-recent-'));
  h = await startHarness({ storeUrl: `file:${dir}` });
  ada = await h.createUser('ada');
  // Two posts share the newest date: the higher id comes first.
  const posts: FeedItem[] = [
    ...dailyPosts(TOTAL - 1),
    { id: 'p298b', content_html: '<p>twin</p>', date_published: dailyPosts(TOTAL - 1)[298]!.date_published! },
  ];
  const state = await h.importFile(ada, jsonFeed(posts), 'application/json');
  expect(state.status).toBe('complete');
  replica = await h.replica();
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

const base = () => `/imported/archive/${ada.siteId}/recent.json`;

it("a replica's first page reads the 25 posts it shows and one more, not the archive", async () => {
  const { answer, read } = await reads(() => feed(base()));
  expect(idsOf(answer).slice(0, 3)).toEqual(['p298b', 'p298', 'p297']);
  expect(answer.items).toHaveLength(25);
  expect(answer.next_url).toMatch(/recent\.json\?offset=25$/);
  expect(read).toBeLessThanOrEqual(26);
});

it('the next pages near the top read what they skip and show', async () => {
  const { answer, read } = await reads(() => feed(`${base()}?offset=50`));
  expect(idsOf(answer)[0]).toBe('p249');
  expect(read).toBeLessThanOrEqual(76);
});

it('pages read by index and by the read model agree, page for page', async () => {
  // The importing replica (behind the gateway) has the site's read model.
  for (const offset of [0, 25, 275, 300]) {
    const path = `${base()}?offset=${offset}`;
    expect(idsOf(await feed(path))).toEqual(ids(await h.feed(path)));
  }
});

it("an unfinished import's posts among the newest stay hidden, and the page is still full", async () => {
  const archive = (await h.store.collection('archives').findOne({ _id: ada.siteId }))!;
  const newest = Date.parse(dailyPosts(TOTAL - 1)[298]!.date_published!);
  // Posts a running import has written and not yet made visible, dated after every visible one.
  await h.store.collection('posts').insertMany(
    Array.from({ length: 3 }, (_, i) => ({
      _id: `${ada.siteId}:hidden${i}`,
      siteId: ada.siteId,
      itemId: `hidden${i}`,
      url: '',
      title: 'Hidden',
      contentHtml: '<p>hidden</p>',
      contentText: 'hidden',
      publishedMs: newest + (i + 1) * 60_000,
      tags: [],
      terms: 'hidden',
      visibleFrom: (archive.version as number) + 1,
    })),
  );
  const { answer, read } = await reads(() => feed(base()));
  expect(idsOf(answer)).toEqual(ids(await h.feed(base())));
  expect(idsOf(answer)).not.toContain('hidden0');
  expect(answer.items).toHaveLength(25);
  expect(read).toBeLessThanOrEqual(26 + 26 + 3 + 25);
});
