// Every list of posts publishing serves reads its newest N through an index and stops there, so its cost
// does not grow with the site (issue 38: getRecentPosts(20) used to read every post of the site). Counted
// as the documents the embedded SQLite engine reads from `posts` per request (documentsExamined), not
// timed: a list that stops using its index reads hundreds here. The site has 400 published posts, 200
// scheduled ones (dated in the future: the newest of all) and 100 drafts; a rare category holds 8.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { documentsExamined } from '@murmur/store-embedded';
import type { PostDoc } from '../src/store.js';
import { startHarness, type Account, type Harness } from './harness.js';

let dir: string;
let h: Harness;
let ada: Account;
let siteId: number;
const PUBLISHED = 400;
const RARE = 8;

/** The documents of `posts` read while `request` runs, and its answer. */
async function reads<T>(request: () => Promise<T>): Promise<{ answer: T; read: number }> {
  const before = documentsExamined('posts');
  const answer = await request();
  return { answer, read: documentsExamined('posts') - before };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-publishing-lists-'));
  h = await startHarness({ storeUrl: `file:${dir}` });
  ada = await h.createUser('ada');
  siteId = (await h.siteOf(ada.id))._id;
  // The categories exist as an editor's first posts make them.
  for (const categories of [['Common'], ['Common', 'Rare']])
    await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'First', description: 'x', categories },
    ]);
  const now = Date.now();
  const posts: PostDoc[] = [];
  const add = (i: number, status: PostDoc['status'], date: Date, categories: string[]) => {
    const path = status === 'draft' ? null : `2020/01/01/post-${i}.html`;
    posts.push({
      _id: 10_000 + i,
      userId: ada.id,
      siteId,
      title: `Post ${i}`,
      body: `Body ${i}`,
      bodyFormat: 'text',
      contentHtml: `<p>Body ${i}</p>`,
      contentText: `Body ${i}`,
      photos: [],
      mentions: [],
      categories,
      status,
      date,
      dateGiven: true,
      path,
      ...(path ? { permalinkKey: `${siteId}/${path}` } : {}),
      firstPublishedAt: status === 'published' ? date : null,
      createdAt: date,
      modifiedAt: date,
      revision: 1,
    });
  };
  for (let i = 0; i < PUBLISHED; i++) {
    const rare = i % (PUBLISHED / RARE) === 0;
    add(i, 'published', new Date(now - (i + 1) * 60_000), rare ? ['Common', 'Rare'] : ['Common']);
  }
  for (let i = 0; i < 200; i++)
    add(PUBLISHED + i, 'scheduled', new Date(now + (i + 1) * 86_400_000), ['Rare']);
  for (let i = 0; i < 100; i++) add(PUBLISHED + 200 + i, 'draft', new Date(now - i * 1000), ['Rare']);
  await h.store.collection('posts').insertMany(posts);
}, 120_000);

afterAll(async () => {
  await h.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('XML-RPC lists (the owner sees drafts and scheduled posts too)', () => {
  it('metaWeblog.getRecentPosts(20) reads 20 posts', async () => {
    const { answer, read } = await reads(() =>
      h.call('metaWeblog.getRecentPosts', ['0', 'ada', ada.token, 20]),
    );
    const posts = answer.value as { post_status: string; dateCreated: Date }[];
    expect(posts).toHaveLength(20);
    expect(posts[0]!.post_status).toBe('scheduled');
    expect(read).toBeLessThanOrEqual(20);
  });

  it('service.getPosts(20, offset 100) reads the 100 skipped and the 20 shown', async () => {
    const { answer, read } = await reads(() => h.call('service.getPosts', ['0', 'ada', ada.token, 20, 100]));
    expect(answer.value).toHaveLength(20);
    expect(read).toBeLessThanOrEqual(120);
  });
});

describe('the site (published posts only)', () => {
  it('the home page reads the 20 newest published posts', async () => {
    const { answer, read } = await reads(() => h.get('/sites/ada/'));
    expect(answer.statusCode).toBe(200);
    expect(answer.text).toContain('Post 0<');
    expect(answer.text).not.toContain(`Post ${PUBLISHED}<`);
    expect(read).toBeLessThanOrEqual(20);
  });

  it('the JSON Feed and the RSS feed read 20 each', async () => {
    const json = await reads(() => h.get('/sites/ada/feed.json'));
    expect(JSON.parse(json.answer.text).items).toHaveLength(20);
    expect(json.read).toBeLessThanOrEqual(20);
    const rss = await reads(() => h.get('/sites/ada/feed.xml'));
    expect(rss.answer.text.match(/<item>/g)).toHaveLength(20);
    expect(rss.read).toBeLessThanOrEqual(20);
  });

  it("a category's page and feed read only that category's published posts", async () => {
    const page = await reads(() => h.get('/sites/ada/categories/rare/'));
    expect(page.answer.statusCode).toBe(200);
    expect(page.answer.text.match(/class="h-entry"/g)).toHaveLength(RARE + 1);
    expect(page.read).toBeLessThanOrEqual(RARE + 1);
    const feed = await reads(() => h.get('/sites/ada/categories/rare/feed.xml'));
    expect(feed.answer.text.match(/<item>/g)).toHaveLength(RARE + 1);
    expect(feed.read).toBeLessThanOrEqual(RARE + 1);
  });

  it('a permalink reads one post', async () => {
    const { answer, read } = await reads(() => h.get('/sites/ada/2020/01/01/post-7.html'));
    expect(answer.statusCode).toBe(200);
    expect(read).toBe(1);
  });
});
