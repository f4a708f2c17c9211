// Pages: standalone documents of a site at {site url}{slug}/, optionally listed in its navigation.
import { DuplicateKeyError } from '@murmur/store';
import type { PageDoc, SiteDoc } from '../store.js';
import { renderBody } from './content.js';
import type { Caller, PublishingContext } from './context.js';
import { badParam, pageNotFound } from './errors.js';
import { checkBody, checkTitle } from './post-rules.js';
import { siteUrl } from './site-json.js';
import { isReservedPageSlug, slugCandidates, slugify } from './slugs.js';
import { MAX_LIST_COUNT } from './posts.js';

export interface PageChanges {
  title?: string;
  description?: string;
  isNavigation?: boolean;
  date?: Date;
}

export function pagePermalink(ctx: PublishingContext, site: SiteDoc, page: Pick<PageDoc, 'slug'>): string {
  return `${siteUrl(ctx, site)}${page.slug}/`;
}

function checked(changes: PageChanges): PageChanges {
  const out = { ...changes };
  if (out.title !== undefined) out.title = checkTitle(out.title);
  if (out.description !== undefined) checkBody(out.description);
  return out;
}

function bodyOf(ctx: PublishingContext, site: SiteDoc, description: string) {
  const rendered = renderBody(description, { baseUrl: siteUrl(ctx, site) });
  return { body: rendered.body, bodyFormat: rendered.format, contentHtml: rendered.html };
}

export async function createPage(
  ctx: PublishingContext,
  caller: Caller,
  site: SiteDoc,
  input: PageChanges,
): Promise<number> {
  const changes = checked(input);
  if (!changes.title) throw badParam('title: a page needs a title');
  const now = ctx.clock.now();
  const id = await ctx.store.nextPageId();
  const base = slugify(changes.title) || `page-${id}`;
  for (const slug of slugCandidates(base)) {
    if (isReservedPageSlug(slug)) continue;
    const page: PageDoc = {
      _id: id,
      userId: caller.userId,
      siteId: site._id,
      title: changes.title,
      ...bodyOf(ctx, site, changes.description ?? ''),
      slug,
      slugKey: `${site._id}/${slug}`,
      isNavigation: changes.isNavigation ?? false,
      date: changes.date ?? now,
      createdAt: now,
      modifiedAt: now,
    };
    try {
      await ctx.store.insertPage(page);
      return id;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }
  throw new Error('unreachable');
}

export async function ownPage(
  ctx: PublishingContext,
  caller: Caller,
  pageId: number,
): Promise<{ page: PageDoc; site: SiteDoc }> {
  const page = await ctx.store.pageById(pageId);
  if (!page || page.userId !== caller.userId) throw pageNotFound();
  const site = await ctx.store.siteById(page.siteId);
  if (!site) throw pageNotFound();
  return { page, site };
}

/** Members present replace stored values; the slug (and so the URL) stays. */
export async function editPage(
  ctx: PublishingContext,
  caller: Caller,
  pageId: number,
  input: PageChanges,
): Promise<void> {
  const { page, site } = await ownPage(ctx, caller, pageId);
  const changes = checked(input);
  if (changes.title === '') throw badParam('title: a page needs a title');
  const set: Partial<PageDoc> = { modifiedAt: ctx.clock.now() };
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.description !== undefined) Object.assign(set, bodyOf(ctx, site, changes.description));
  if (changes.isNavigation !== undefined) set.isNavigation = changes.isNavigation;
  if (changes.date !== undefined) set.date = changes.date;
  await ctx.store.updatePage(page._id, set);
}

export async function deletePage(ctx: PublishingContext, caller: Caller, pageId: number): Promise<void> {
  const { page } = await ownPage(ctx, caller, pageId);
  if (!(await ctx.store.deletePageOfUser(page._id, caller.userId))) throw pageNotFound();
}

export async function listPages(
  ctx: PublishingContext,
  site: SiteDoc,
  count: number,
  offset: number,
): Promise<PageDoc[]> {
  // A limit of 0 means "no limit" to the store; a count of 0 means none.
  if (count <= 0) return [];
  return ctx.store.pagesOfSite(site._id, Math.min(count, MAX_LIST_COUNT), offset);
}
