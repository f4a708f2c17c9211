// Bookmarks and the read-later queue: what a user saves, the jobs that fetch the pages, archiving,
// and the private queue token behind the two private feeds.
import { notFound, randomToken, sha256Hex, timingSafeEqualHex, tooManyRequests } from '@murmur/core';
import { FetchBlockedError } from '@murmur/fetch';
import { createStoreRateLimiter } from '@murmur/http';
import { enqueueJob } from '@murmur/jobs';
import { type Store } from '@murmur/store';
import type { BookmarkDoc, ReadLaterDoc, UserDoc } from '../store/index.js';
import type { FeedsContext } from './context.js';
import {
  bookmarkId,
  bookmarkItem,
  feed,
  linkParagraph,
  readLaterId,
  readLaterItem,
  V1,
  V1_1,
} from './feed-json.js';
import { articleExtractJob, bookmarkFetchJob } from './jobs.js';
import { extractArticle, fetchPage, readPageInfo } from './pages.js';
import { findUserById, findUserByUsername, NO_SUCH_USER, profilesOf } from './users.js';
import type { FeedView } from './views.js';

export const PRIVATE_FEED_LIMIT = 100;
export const NOT_FOUND = 'Not found.';

export function createSaveLimiter(store: Store, perMinute: number) {
  return createStoreRateLimiter(store, { name: 'feeds-saves', max: perMinute, windowMs: 60_000 });
}

async function countSave(ctx: FeedsContext, userId: number): Promise<void> {
  const { allowed, retryAfterSeconds } = await ctx.saveLimiter.hit(String(userId));
  if (!allowed) throw tooManyRequests(retryAfterSeconds);
}

async function owner(ctx: FeedsContext, userId: number): Promise<UserDoc> {
  const user = await findUserById(ctx, userId);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}

// ---- bookmarks -------------------------------------------------------------------------------------

export interface Saved {
  id: string;
  url: string;
}

export async function bookmarkUrl(ctx: FeedsContext, userId: number, url: string): Promise<Saved> {
  await owner(ctx, userId);
  const key = `${userId} bookmark ${url}`;
  const existing = await ctx.store.bookmarkByKey(key);
  if (existing) return { id: bookmarkId(existing._id), url: existing.url };
  await countSave(ctx, userId);
  const now = ctx.clock.now();
  const doc: BookmarkDoc = {
    _id: await ctx.store.nextBookmarkId(),
    userId,
    type: 'bookmark',
    url,
    key,
    title: '',
    authorName: '',
    contentHtml: '',
    summary: '',
    status: 'pending',
    audio: null,
    createdAt: now,
  };
  const stored = await insertBookmark(ctx, doc);
  if (stored._id === doc._id) {
    await enqueueJob(ctx.jobs, bookmarkFetchJob, { bookmarkId: doc._id }, { key: `bookmark-${doc._id}` });
  }
  await ctx.store.markQueueChanged(userId, now);
  return { id: bookmarkId(stored._id), url: stored.url };
}

/** Inserts, or returns the bookmark a concurrent request stored under the same key. */
async function insertBookmark(ctx: FeedsContext, doc: BookmarkDoc): Promise<BookmarkDoc> {
  try {
    await ctx.store.insertBookmark(doc);
    return doc;
  } catch (err) {
    const winner = await ctx.store.bookmarkByKey(doc.key);
    if (winner) return winner;
    throw err;
  }
}

export async function bookmarkPost(ctx: FeedsContext, userId: number, postId: number): Promise<Saved> {
  await owner(ctx, userId);
  const post = await ctx.store.postById(postId);
  if (!post || !post.visible) throw notFound('No such post.');
  const key = `${userId} bookmark ${post.url}`;
  const existing = await ctx.store.bookmarkByKey(key);
  if (existing) return { id: bookmarkId(existing._id), url: existing.url };
  await countSave(ctx, userId);
  const author = (await profilesOf(ctx, [post.userId])).get(post.userId);
  const now = ctx.clock.now();
  const stored = await insertBookmark(ctx, {
    _id: await ctx.store.nextBookmarkId(),
    userId,
    type: 'bookmark',
    url: post.url,
    key,
    title: post.title || post.contentText.replace(/\s+/g, ' ').trim().slice(0, 80),
    authorName: author ? author.name || author.username : '',
    contentHtml: '',
    summary: '',
    status: 'ready',
    audio: null,
    createdAt: now,
  });
  await ctx.store.markQueueChanged(userId, now);
  return { id: bookmarkId(stored._id), url: stored.url };
}

/** `bm-311` or `311` → 311; anything else → undefined (an unknown bookmark). */
export function parseSavedId(text: string, prefix: 'bm' | 'rl'): number | undefined {
  const match = new RegExp(`^(?:${prefix}-)?(\\d{1,15})$`).exec(text);
  return match ? Number(match[1]) : undefined;
}

export async function deleteBookmark(ctx: FeedsContext, userId: number, idText: string): Promise<void> {
  const id = parseSavedId(idText, 'bm');
  if (id === undefined || !(await ctx.store.deleteBookmark(userId, id))) throw notFound('No such bookmark.');
  await ctx.store.markQueueChanged(userId, ctx.clock.now());
}

/** The job: title, site name and podcast audio of a bookmarked page. */
export async function fetchBookmark(ctx: FeedsContext, id: number): Promise<void> {
  const bookmark = await ctx.store.bookmarkById(id);
  if (!bookmark || bookmark.status !== 'pending') return;
  let set: Partial<BookmarkDoc>;
  try {
    const res = await fetchPage(ctx, bookmark.url);
    if (res.status >= 500 || res.status === 429) throw new Error(`the page answered ${res.status}`);
    if (res.status < 200 || res.status > 299) set = { status: 'failed' };
    else {
      const info = await readPageInfo(res);
      set = { status: 'ready', title: info.title, authorName: info.siteName, audio: info.audio };
    }
  } catch (err) {
    // A refused address will be refused again: the bookmark keeps its URL as its title.
    if (err instanceof FetchBlockedError) set = { status: 'failed' };
    else throw err;
  }
  await ctx.store.updateBookmark(id, set);
  await ctx.store.markQueueChanged(bookmark.userId, ctx.clock.now());
}

function nextUrl(
  ctx: FeedsContext,
  path: string,
  count: number,
  last: BookmarkDoc | undefined,
): string | undefined {
  return last
    ? `${ctx.config.PUBLIC_URL}${path}?count=${count}&before_id=${bookmarkId(last._id)}`
    : undefined;
}

export async function bookmarksView(
  ctx: FeedsContext,
  userId: number,
  options: { count: number; beforeId?: string; podcasts: boolean },
): Promise<FeedView> {
  const user = await owner(ctx, userId);
  const body = await bookmarksFeed(ctx, user, options);
  return { changedAtMs: user.queueChangedAt?.getTime() ?? 0, build: async () => body };
}

async function bookmarksFeed(
  ctx: FeedsContext,
  user: UserDoc,
  options: { count: number; beforeId?: string; podcasts: boolean },
) {
  const userId = user._id;
  let beforeId: number | undefined;
  if (options.beforeId !== undefined) {
    beforeId = parseSavedId(options.beforeId, 'bm');
    if (beforeId === undefined) beforeId = 0; // an id we never gave out: nothing is older than it
  }
  const docs = await ctx.store.bookmarksOf(
    userId,
    {
      type: 'bookmark',
      ...(options.podcasts ? { podcast: true } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
    },
    options.count + 1,
  );
  const page = docs.slice(0, options.count);
  const path = options.podcasts ? '/posts/bookmarks/listenlater' : '/posts/bookmarks';
  return feed(
    V1_1,
    options.podcasts ? `${user.username} listen later` : `${user.username} bookmarks`,
    page.map((b) => bookmarkItem(b, V1_1)),
    {
      feed: `${ctx.config.PUBLIC_URL}${path}`,
      ...(docs.length > options.count
        ? { next: nextUrl(ctx, path, options.count, page[page.length - 1]) }
        : {}),
    },
  );
}

// ---- read later ------------------------------------------------------------------------------------

export async function saveForLater(ctx: FeedsContext, userId: number, url: string): Promise<Saved> {
  await owner(ctx, userId);
  const existing = await ctx.store.unarchivedReadLaterByUrl(userId, url);
  if (existing) return { id: readLaterId(existing._id), url: existing.url };
  await countSave(ctx, userId);
  const now = ctx.clock.now();
  const doc: ReadLaterDoc = {
    _id: await ctx.store.nextReadLaterId(),
    userId,
    url,
    title: '',
    contentHtml: '',
    excerpt: '',
    status: 'pending',
    savedAt: now,
    archivedAt: null,
  };
  await ctx.store.insertReadLater(doc);
  await enqueueJob(ctx.jobs, articleExtractJob, { readLaterId: doc._id }, { key: `readlater-${doc._id}` });
  await ctx.store.markQueueChanged(userId, now);
  return { id: readLaterId(doc._id), url };
}

/** The job: fetch (20 s, 5 MB) and extract the article, sanitised. */
export async function extractSavedArticle(ctx: FeedsContext, id: number): Promise<void> {
  const saved = await ctx.store.readLaterById(id);
  if (!saved || saved.status !== 'pending') return;
  let set: Partial<ReadLaterDoc>;
  try {
    const res = await fetchPage(ctx, saved.url);
    if (res.status >= 500 || res.status === 429) throw new Error(`the page answered ${res.status}`);
    const article = res.status >= 200 && res.status <= 299 ? await extractArticle(ctx, res) : null;
    set = article
      ? { status: 'ready', title: article.title, contentHtml: article.contentHtml, excerpt: article.excerpt }
      : { status: 'failed', title: res.status === 200 ? (await readPageInfo(res)).title : '' };
  } catch (err) {
    if (err instanceof FetchBlockedError) set = { status: 'failed' };
    else throw err;
  }
  await ctx.store.updateReadLater(id, set);
  // An article archived while it was being fetched takes its content along.
  if (set.status === 'ready') {
    await ctx.store.fillArchivedContent(`${saved.userId} archived ${saved.url}`, {
      title: set.title,
      contentHtml: set.contentHtml,
      summary: set.excerpt,
    });
  }
  await ctx.store.markQueueChanged(saved.userId, ctx.clock.now());
}

export async function archive(ctx: FeedsContext, userId: number, idText: string): Promise<void> {
  const id = parseSavedId(idText, 'rl');
  const saved = id === undefined ? null : await ctx.store.readLaterOf(userId, id);
  if (!saved) throw notFound('No such read-later item.');
  if (saved.archivedAt !== null) return;
  const now = ctx.clock.now();
  await ctx.store.archiveReadLater(saved._id, now);
  const key = `${userId} archived ${saved.url}`;
  const fields = {
    title: saved.title,
    contentHtml: saved.contentHtml || linkParagraph(saved.url, saved.title),
    summary: saved.excerpt,
    createdAt: now,
  };
  if (!(await ctx.store.updateBookmarkByKey(key, fields))) {
    await insertBookmark(ctx, {
      _id: await ctx.store.nextBookmarkId(),
      userId,
      type: 'archived',
      url: saved.url,
      key,
      authorName: '',
      status: saved.status,
      audio: null,
      ...fields,
    });
  }
  await ctx.store.markQueueChanged(userId, now);
}

// ---- the private queue token and feeds -------------------------------------------------------------

export interface QueueUrls {
  token: string;
  bookmarks_url: string;
  readlater_url: string;
}

function queueUrls(ctx: FeedsContext, user: UserDoc, token: string): QueueUrls {
  const base = `${ctx.config.PUBLIC_URL}/feeds/${encodeURIComponent(user.username)}`;
  return {
    token,
    bookmarks_url: `${base}/bookmarks/${token}.json`,
    readlater_url: `${base}/readlater/${token}.json`,
  };
}

export async function queueToken(ctx: FeedsContext, userId: number): Promise<QueueUrls> {
  const user = await owner(ctx, userId);
  const now = ctx.clock.now();
  const doc = await ctx.store.ensureQueueToken(userId, randomToken(), now);
  if (doc.createdAt.getTime() === now.getTime()) await ctx.store.markQueueChanged(userId, now);
  return queueUrls(ctx, user, doc.token);
}

export async function rotateQueueToken(ctx: FeedsContext, userId: number): Promise<QueueUrls> {
  const user = await owner(ctx, userId);
  const now = ctx.clock.now();
  const doc = await ctx.store.replaceQueueToken(userId, randomToken(), now);
  await ctx.store.markQueueChanged(userId, now);
  return queueUrls(ctx, user, doc.token);
}

// Compared against when the user or their token does not exist, so every refusal costs the same.
const NO_TOKEN_HASH = sha256Hex('no token: never matches');

/** The user whose queue token this is, or a 404 that says nothing about which part was wrong. */
async function queueOwner(ctx: FeedsContext, username: string, token: string): Promise<UserDoc> {
  const user = await findUserByUsername(ctx, username);
  const stored = user ? await ctx.store.queueTokenOf(user._id) : null;
  const matches = timingSafeEqualHex(sha256Hex(token), stored ? sha256Hex(stored.token) : NO_TOKEN_HASH);
  if (!user || !stored || !matches) throw notFound(NOT_FOUND);
  return user;
}

export async function privateBookmarksView(
  ctx: FeedsContext,
  username: string,
  token: string,
): Promise<FeedView> {
  const user = await queueOwner(ctx, username, token);
  return {
    changedAtMs: user.queueChangedAt?.getTime() ?? 0,
    async build() {
      const docs = await ctx.store.bookmarksOf(user._id, { podcast: false }, PRIVATE_FEED_LIMIT);
      return feed(
        V1,
        `${user.username} bookmarks`,
        docs.map((b) => bookmarkItem(b, V1)),
      );
    },
  };
}

export async function privateReadLaterView(
  ctx: FeedsContext,
  username: string,
  token: string,
): Promise<FeedView> {
  const user = await queueOwner(ctx, username, token);
  return {
    changedAtMs: user.queueChangedAt?.getTime() ?? 0,
    async build() {
      const docs = await ctx.store.readLaterQueue(user._id, PRIVATE_FEED_LIMIT);
      return feed(V1, `${user.username} read later`, docs.map(readLaterItem));
    },
  };
}
