// Categories are created from use: a post names them, they are matched case-insensitively to the site's
// categories, and the first use of a new name creates it (with its own slug for its pages).
import { DuplicateKeyError } from '@murmur/store';
import type { CategoryDoc, SiteDoc } from '../store.js';
import type { PublishingContext } from './context.js';
import { badParam } from './errors.js';
import { slugCandidates, slugify } from './slugs.js';

export const MAX_CATEGORIES = 50;
export const MAX_CATEGORY_LENGTH = 100;

/** The names a `categories` member gives: an array of strings, or a single string as one name. */
export function categoryNames(value: unknown, member = 'categories'): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) throw badParam(`${member}: must be an array of strings`);
  if (list.length > MAX_CATEGORIES) throw badParam(`${member}: at most ${MAX_CATEGORIES}`);
  const names: string[] = [];
  for (const item of list) {
    if (item === null) continue;
    if (typeof item !== 'string') throw badParam(`${member}: must be an array of strings`);
    const name = item.trim().replace(/\s+/g, ' ');
    if (name.length < 1 || name.length > MAX_CATEGORY_LENGTH)
      throw badParam(`${member}: each name must be 1 to ${MAX_CATEGORY_LENGTH} characters`);
    if (!sameNameIn(names, name)) names.push(name);
  }
  return names;
}

/** The tags an `mt_keywords` member gives: names separated by commas (an array of names also does). */
export function tagNames(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',').filter((name) => name.trim() !== '') : value;
  return categoryNames(list, 'mt_keywords');
}

/** Whether `names` holds `name`, case aside (categories are matched so). */
export function sameNameIn(names: readonly string[], name: string): boolean {
  const lower = name.toLowerCase();
  return names.some((n) => n.toLowerCase() === lower);
}

/** `first`, then the names of `then` it does not hold yet. */
export function mergeNames(first: readonly string[], then: readonly string[]): string[] {
  const out = [...first];
  for (const name of then) if (!sameNameIn(out, name)) out.push(name);
  return out;
}

const nameKey = (siteId: number, name: string) => `${siteId}/${name.toLowerCase()}`;

async function createCategory(ctx: PublishingContext, site: SiteDoc, name: string): Promise<CategoryDoc> {
  const base = slugify(name) || 'category';
  const id = await ctx.store.nextCategoryId();
  for (const slug of slugCandidates(base)) {
    const doc: CategoryDoc = {
      _id: id,
      siteId: site._id,
      userId: site.userId,
      name,
      nameKey: nameKey(site._id, name),
      slug,
      slugKey: `${site._id}/${slug}`,
      createdAt: ctx.clock.now(),
    };
    try {
      await ctx.store.insertCategory(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Someone created the same name meanwhile: use theirs. Otherwise the slug was taken: try the next.
      const same = await ctx.store.categoryByNameKey(doc.nameKey);
      if (same) return same;
    }
  }
  throw new Error('unreachable');
}

/** The site's categories for `names`, created when new; their stored spelling, in the given order. */
export async function useCategories(
  ctx: PublishingContext,
  site: SiteDoc,
  names: string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    const found = await ctx.store.categoryByNameKey(nameKey(site._id, name));
    out.push((found ?? (await createCategory(ctx, site, name))).name);
  }
  return out;
}

export async function categoriesOfSite(ctx: PublishingContext, siteId: number): Promise<CategoryDoc[]> {
  return ctx.store.categoriesOfSite(siteId);
}

export async function categoryBySlug(
  ctx: PublishingContext,
  siteId: number,
  slug: string,
): Promise<CategoryDoc | null> {
  return ctx.store.categoryBySlug(siteId, slug);
}

/** The site's categories of `names` (stored spellings), in that order; names without one are left out. */
export async function categoriesNamed(
  ctx: PublishingContext,
  siteId: number,
  names: readonly string[],
): Promise<CategoryDoc[]> {
  const found = await Promise.all(names.map((name) => ctx.store.categoryByNameKey(nameKey(siteId, name))));
  return found.filter((c): c is CategoryDoc => c !== null);
}

/** The site's category with that id, or a bad-parameter error naming it. */
export async function categoryOfSite(
  ctx: PublishingContext,
  siteId: number,
  id: number,
): Promise<CategoryDoc> {
  const found = await ctx.store.categoryById(id);
  if (!found || found.siteId !== siteId) throw badParam(`categoryId: no category ${id} on this site`);
  return found;
}
