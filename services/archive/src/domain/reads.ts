// The four public reads of an archive (docs/api/archive.md): recent posts, search, years and a
// month. Each returns a view — the archive's ETag and a builder — so a conditional GET that matches
// answers 304 without fetching a post. Pages near the top of recent.json are read by the store's date
// index until the process has the site's read model; everything else reads the model.
import { badRequest, notFound } from '@murmur/core';
import { lastValue } from '@murmur/http';
import type { ArchiveDoc, PostDoc } from '../store/index.js';
import type { ArchiveContext } from './context.js';
import { feedOf, type ArchiveFeed } from './feed-json.js';
import type { SiteIndex } from './site-index.js';
import { foldTerms } from './terms.js';

export const RECENT_PAGE = 25;
/**
 * recent.json pages that start before this many posts are read through the store's date index when the
 * process has no read model of the site yet: a first read costs its page, not the archive. Deeper ones
 * build the model (a deep page by index would read every post it skips).
 */
export const RECENT_BY_INDEX_BEFORE = 1000;
export const SEARCH_LIMIT = 100;
export const MONTH_LIMIT = 1000;
export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_TERMS = 10;

export const NO_ARCHIVE = 'No archive for this site.';

export interface View<T> {
  /** Changes whenever an import of the site completes. */
  etag: string;
  build(): Promise<T>;
}

async function archiveOr404(ctx: ArchiveContext, siteId: number): Promise<ArchiveDoc> {
  const archive = await ctx.store.archiveOf(siteId);
  if (!archive) throw notFound(NO_ARCHIVE);
  return archive;
}

/** The posts of `ids`, in that order (a post replaced meanwhile by a running commit is still there). */
async function postsInOrder(ctx: ArchiveContext, ids: string[]): Promise<PostDoc[]> {
  const byId = new Map((await ctx.store.postsByIds(ids)).map((p) => [p._id, p]));
  return ids.map((id) => byId.get(id)).filter((p): p is PostDoc => p !== undefined);
}

function base(ctx: ArchiveContext, siteId: number): string {
  return `${ctx.config.PUBLIC_URL}/imported/archive/${siteId}`;
}

async function view<T>(
  ctx: ArchiveContext,
  siteId: number,
  build: (archive: ArchiveDoc, index: SiteIndex) => Promise<T>,
): Promise<View<T>> {
  const archive = await archiveOr404(ctx, siteId);
  return {
    etag: `"${archive.etag}"`,
    build: async () => build(archive, await ctx.indexes.indexOf(ctx, archive)),
  };
}

/**
 * The visible posts `offset`… of a page near the top, newest first, read by the store's date index:
 * the page, what it skips and one more (to tell whether another page follows). Posts of an unfinished
 * import (hidden) among them take places: the read is made once more, longer by what they took and a
 * page. Undefined when even that did not reach the end of the page: the read model answers then.
 */
async function recentByIndex(
  ctx: ArchiveContext,
  archive: ArchiveDoc,
  offset: number,
): Promise<{ posts: PostDoc[]; more: boolean } | undefined> {
  const wanted = offset + RECENT_PAGE + 1;
  let limit = wanted;
  for (let attempt = 0; attempt < 2; attempt++) {
    const newest = await ctx.store.newestPosts(archive._id, limit);
    const visible = newest.filter((post) => post.visibleFrom <= archive.version);
    if (visible.length >= wanted || newest.length < limit)
      return { posts: visible.slice(offset, offset + RECENT_PAGE), more: visible.length >= wanted };
    limit += wanted - visible.length + RECENT_PAGE;
  }
  return undefined;
}

/** Parses `offset` (docs/api/archive.md: a non-negative integer, default 0). */
export function parseOffset(raw: unknown): number {
  const value = lastValue(raw);
  if (value === undefined) return 0;
  if (typeof value !== 'string' || !/^\d{1,30}$/.test(value)) {
    throw badRequest('offset must be a non-negative integer', 'offset');
  }
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}

/** Parses `q` into its folded terms, refusing what docs/api/archive.md refuses. */
export function parseQuery(raw: unknown): { q: string; terms: string[] } {
  const value = lastValue(raw);
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('q is required', 'q');
  const q = value.trim();
  if ([...q].length > MAX_QUERY_LENGTH) {
    throw badRequest(`q must be at most ${MAX_QUERY_LENGTH} characters`, 'q');
  }
  const terms = foldTerms(q);
  if (terms.length === 0) throw badRequest('q must contain a letter or a digit', 'q');
  if (terms.length > MAX_QUERY_TERMS) throw badRequest(`q must have at most ${MAX_QUERY_TERMS} terms`, 'q');
  return { q, terms };
}

export async function recentView(
  ctx: ArchiveContext,
  siteId: number,
  offset: number,
): Promise<View<ArchiveFeed>> {
  const archive = await archiveOr404(ctx, siteId);
  const url = `${base(ctx, siteId)}/recent.json`;
  const page = (posts: PostDoc[], more: boolean) =>
    feedOf({
      title: `${archive.title} — archive`,
      homePageUrl: archive.homePageUrl,
      feedUrl: offset === 0 ? url : `${url}?offset=${offset}`,
      nextUrl: more ? `${url}?offset=${offset + RECENT_PAGE}` : undefined,
      posts,
    });
  return {
    etag: `"${archive.etag}"`,
    async build() {
      if (offset < RECENT_BY_INDEX_BEFORE && !ctx.indexes.has(archive)) {
        const read = await recentByIndex(ctx, archive, offset);
        if (read) return page(read.posts, read.more);
      }
      const index = await ctx.indexes.indexOf(ctx, archive);
      return page(
        await postsInOrder(ctx, index.recent(offset, RECENT_PAGE)),
        offset + RECENT_PAGE < index.size,
      );
    },
  };
}

export function searchView(
  ctx: ArchiveContext,
  siteId: number,
  query: { q: string; terms: string[] },
): Promise<View<ArchiveFeed>> {
  return view(ctx, siteId, async (archive, index) =>
    feedOf({
      title: `Search: ${query.q}`,
      homePageUrl: archive.homePageUrl,
      feedUrl: `${base(ctx, siteId)}/search.json?q=${encodeURIComponent(query.q)}`,
      posts: await postsInOrder(ctx, index.search(query.terms, SEARCH_LIMIT)),
    }),
  );
}

export function yearsView(ctx: ArchiveContext, siteId: number): Promise<View<number[]>> {
  return view(ctx, siteId, async (_archive, index) => index.years);
}

/** Parses the path's year and month (docs/api/archive.md: four digits; 1–12 or 01–09). */
export function parseMonth(yearText: string, monthText: string): { year: number; month: number } {
  if (!/^\d{4}$/.test(yearText)) throw badRequest('year must be four digits', 'year');
  if (!/^\d{1,2}$/.test(monthText) || Number(monthText) < 1 || Number(monthText) > 12) {
    throw badRequest('month must be from 1 to 12', 'month');
  }
  return { year: Number(yearText), month: Number(monthText) };
}

export function monthView(
  ctx: ArchiveContext,
  siteId: number,
  when: { year: number; month: number },
  offset: number,
): Promise<View<ArchiveFeed>> {
  return view(ctx, siteId, async (archive, index) => {
    const mm = String(when.month).padStart(2, '0');
    const url = `${base(ctx, siteId)}/${when.year}/${mm}.json`;
    const page = index.month(when.year, when.month, offset, MONTH_LIMIT);
    return feedOf({
      title: `${archive.title} — ${when.year}-${mm}`,
      homePageUrl: archive.homePageUrl,
      feedUrl: offset === 0 ? url : `${url}?offset=${offset}`,
      nextUrl: offset + MONTH_LIMIT < page.total ? `${url}?offset=${offset + MONTH_LIMIT}` : undefined,
      posts: await postsInOrder(ctx, page.ids),
    });
  });
}
