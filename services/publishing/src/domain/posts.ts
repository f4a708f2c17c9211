// Posts: create, edit, delete, read and list, each by its owner only (another user's post answers like a
// missing one). Everything a request asks for is checked before anything is written.
import { publishing } from '@murmur/contracts';
import { DuplicateKeyError } from '@murmur/store';
import type { DeletedPostDoc, PostDoc, PostMf2, SiteDoc } from '../store.js';
import { categoryOfSite, mergeNames, sameNameIn, useCategories } from './categories.js';
import { renderBody, type RenderedBody } from './content.js';
import type { BusHeaders, Caller, PublishingContext } from './context.js';
import { badParam, postNotFound } from './errors.js';
import { resolveMentions } from './mentions.js';
import { decorateBody, hasMf2Substance } from './micropub-html.js';
import { announce, postEventId, schedulePublication, verbOf } from './post-events.js';
import { publicPost } from './post-json.js';
import {
  checkBodies,
  checkChanges,
  editedPostTiming,
  newPostTiming,
  type PostChanges,
  type PostTiming,
} from './post-rules.js';
import { siteUrl } from './site-json.js';
import { datePath, slugCandidates, slugify, slugSource } from './slugs.js';

export const MAX_LIST_COUNT = 100;

/** Where the main part ends and the rest (`mt_text_more`) begins in a post's HTML, as WordPress marks it. */
export const MORE_MARKER = '<!--more-->';

type RenderedPost = RenderedBody & { more: string; mentions: PostDoc['mentions'] };

/**
 * The main part and the rest, each rendered as a body, joined by the more marker; a Micropub post's
 * properties (replies, likes, photos …) around them (micropub-html.ts).
 */
async function render(
  ctx: PublishingContext,
  site: SiteDoc,
  description: string,
  more: string,
  headers: BusHeaders,
  mf2?: PostMf2,
): Promise<RenderedPost> {
  const hasMore = more.trim() !== '';
  const { mentions, urls } = await resolveMentions(
    ctx,
    hasMore ? `${description}\n${more}` : description,
    headers,
  );
  const options = { baseUrl: siteUrl(ctx, site), mentionUrls: urls };
  const main = renderBody(description, options);
  if (!hasMore) return decorateBody({ ...main, more: '', mentions }, mf2);
  const rest = renderBody(more, options);
  return decorateBody(
    {
      ...main,
      html: `${main.html}\n${MORE_MARKER}\n${rest.html}`,
      text: [main.text, rest.text].filter((t) => t !== '').join('\n\n'),
      photos: [...main.photos, ...rest.photos],
      more: rest.body,
      mentions,
    },
    mf2,
  );
}

function bodyFields(rendered: RenderedPost) {
  return {
    body: rendered.body,
    bodyFormat: rendered.format,
    more: rendered.more,
    contentHtml: rendered.html,
    contentText: rendered.text,
    photos: rendered.photos,
    mentions: rendered.mentions,
  };
}

/** The stored categories: the chosen ones, then the tags not among them (stored spellings). */
async function categoriesAndTags(
  ctx: PublishingContext,
  site: SiteDoc,
  chosen: string[],
  tags: string[],
): Promise<{ categories: string[]; tags: string[] }> {
  const chosenNames = await useCategories(ctx, site, chosen);
  const tagNames = await useCategories(ctx, site, tags);
  return { categories: mergeNames(chosenNames, tagNames), tags: tagNames };
}

/** The slug of a post's permalink, or the one asked for while it has none. */
export function slugOf(post: Pick<PostDoc, 'path' | 'slug'>): string {
  return post.path
    ? post.path.slice(post.path.lastIndexOf('/') + 1).replace(/\.html$/, '')
    : (post.slug ?? '');
}

/**
 * Writes `post` (insert, or replace when it exists) with a free permalink when it needs one: the slug
 * from its title or first words, on its date, with `-2`, `-3`… after a clash on the same day.
 */
async function savePost(ctx: PublishingContext, post: PostDoc, insert: boolean): Promise<PostDoc> {
  const needsPath = post.path === null && post.status !== 'draft';
  const base = post.slug || slugify(slugSource(post.title, post.contentText)) || String(post._id);
  const candidates = needsPath ? slugCandidates(base) : null;
  for (;;) {
    if (candidates) {
      const path = `${datePath(post.date)}${candidates.next().value as string}.html`;
      // A deleted post's URL stays gone (410) rather than showing another post.
      if (await ctx.store.postByPermalink(post.siteId, path)) continue;
      if (await ctx.store.deletedPostAt(post.siteId, path)) continue;
      post.path = path;
      post.permalinkKey = `${post.siteId}/${path}`;
    }
    try {
      if (insert) await ctx.store.insertPost(post);
      else await ctx.store.replacePost(post);
      return post;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError) || !candidates) throw err;
    }
  }
}

export async function createPost(
  ctx: PublishingContext,
  caller: Caller,
  site: SiteDoc,
  input: PostChanges,
  headers: BusHeaders,
): Promise<number> {
  const changes = checkChanges(input);
  const title = changes.title ?? '';
  const description = changes.description ?? '';
  const more = changes.more ?? '';
  if (title === '' && description.trim() === '' && more.trim() === '' && !hasMf2Substance(changes.mf2))
    throw badParam('description: a post needs a description or a title');
  checkBodies(description, more);
  const now = ctx.clock.now();
  const timing = newPostTiming(changes, now);
  const rendered = await render(ctx, site, description, more, headers, changes.mf2);
  const names = await categoriesAndTags(ctx, site, changes.categories ?? [], changes.tags ?? []);
  const post: PostDoc = {
    _id: await ctx.store.nextPostId(),
    userId: caller.userId,
    siteId: site._id,
    title,
    ...bodyFields(rendered),
    summary: changes.summary ?? '',
    slug: changes.slug ?? '',
    ...names,
    ...timing,
    path: null,
    firstPublishedAt: timing.status === 'published' ? now : null,
    createdAt: now,
    modifiedAt: now,
    revision: 1,
    ...(changes.mf2 ? { mf2: changes.mf2 } : {}),
  };
  await savePost(ctx, post, true);
  if (post.status === 'scheduled') await schedulePublication(ctx, post);
  if (post.status === 'published')
    await announce(ctx, 'published', publicPost(ctx, site, post), post, headers);
  return post._id;
}

/** The caller's post and its site, or 404 (unknown and not-yours look the same). */
export async function ownPost(
  ctx: PublishingContext,
  caller: Caller,
  postId: number,
): Promise<{ post: PostDoc; site: SiteDoc }> {
  const post = await ctx.store.postById(postId);
  if (!post || post.userId !== caller.userId) throw postNotFound();
  const site = await ctx.store.siteById(post.siteId);
  if (!site) throw postNotFound();
  return { post, site };
}

export async function editPost(
  ctx: PublishingContext,
  caller: Caller,
  postId: number,
  input: PostChanges,
  headers: BusHeaders,
): Promise<void> {
  const { post: before, site } = await ownPost(ctx, caller, postId);
  const changes = checkChanges(input);
  const title = changes.title ?? before.title;
  const description = changes.description ?? before.body;
  const more = changes.more ?? before.more ?? '';
  const mf2 = changes.mf2 ?? before.mf2;
  if (title === '' && description.trim() === '' && more.trim() === '' && !hasMf2Substance(mf2))
    throw badParam('description: a post needs a description or a title');
  const bodyChanged =
    changes.description !== undefined || changes.more !== undefined || changes.mf2 !== undefined;
  if (bodyChanged) checkBodies(description, more);
  const now = ctx.clock.now();
  const current: PostTiming = { status: before.status, date: before.date, dateGiven: before.dateGiven };
  const timing = editedPostTiming(current, changes, now);
  const rendered = bodyChanged ? bodyFields(await render(ctx, site, description, more, headers, mf2)) : {};
  // The chosen categories are those that did not come as tags; either list may change alone.
  const beforeTags = before.tags ?? [];
  const names =
    changes.categories !== undefined || changes.tags !== undefined
      ? await categoriesAndTags(
          ctx,
          site,
          changes.categories ?? before.categories.filter((name) => !sameNameIn(beforeTags, name)),
          changes.tags ?? beforeTags,
        )
      : { categories: before.categories, tags: beforeTags };
  const after: PostDoc = {
    ...before,
    ...rendered,
    title,
    ...names,
    summary: changes.summary ?? before.summary ?? '',
    slug: changes.slug ?? before.slug ?? '',
    ...timing,
    modifiedAt: now,
    revision: before.revision + 1,
    ...(mf2 ? { mf2 } : {}),
  };
  // The permalink is fixed once the post has been public; until then it follows the (new) date and title.
  if (!before.firstPublishedAt) {
    after.path = null;
    delete after.permalinkKey;
  }
  if (after.status === 'published') after.firstPublishedAt = before.firstPublishedAt ?? now;
  await savePost(ctx, after, false);
  if (
    after.status === 'scheduled' &&
    (before.status !== 'scheduled' || before.date.getTime() !== after.date.getTime())
  )
    await schedulePublication(ctx, after);
  const verb = verbOf(before.status === 'published', after.status === 'published');
  if (verb === 'deleted') await announce(ctx, verb, publicPost(ctx, site, before), after, headers);
  else if (verb) await announce(ctx, verb, publicPost(ctx, site, after), after, headers);
}

/**
 * The key of a deleted post's tombstone: its permalink's when it had been public (that URL answers 410
 * from then on); for one never public (a draft, a scheduled post), `{siteId}/unpublished/{path}` or
 * `{siteId}/unpublished/drafts/{id}`, which no page looks up (its URL stays 404).
 */
export function tombstoneKey(
  post: Pick<PostDoc, '_id' | 'siteId' | 'permalinkKey' | 'path' | 'firstPublishedAt'>,
): string {
  if (post.firstPublishedAt && post.path && post.permalinkKey) return post.permalinkKey;
  return `${post.siteId}/unpublished/${post.path ?? `drafts/${post._id}`}`;
}

export async function deletePost(
  ctx: PublishingContext,
  caller: Caller,
  postId: number,
  headers: BusHeaders,
  options: { keepForUndelete?: boolean } = {},
): Promise<void> {
  const { post, site } = await ownPost(ctx, caller, postId);
  // A URL that has been public answers 410 Gone from now on (docs/api/publishing.md, "Site pages").
  // Micropub's delete keeps the whole post in the tombstone, for its undelete.
  const wasPublic = Boolean(post.firstPublishedAt && post.path && post.permalinkKey);
  if (wasPublic || options.keepForUndelete) {
    const tombstone: DeletedPostDoc = {
      _id: tombstoneKey(post),
      siteId: post.siteId,
      postId: post._id,
      deletedAt: ctx.clock.now(),
      ...(options.keepForUndelete ? { post } : {}),
    };
    await ctx.store.recordDeletedPost(tombstone);
  }
  if (!(await ctx.store.deletePostOfUser(post._id, caller.userId))) throw postNotFound();
  // A scheduled post's job finds nothing to publish and ends.
  if (post.status === 'published') {
    const revision = post.revision + 1;
    await ctx.outbox.publish(
      publishing.postDeleted,
      { ...publicPost(ctx, site, post), revision },
      {
        headers,
        id: postEventId(post._id, revision, 'deleted'),
      },
    );
  }
}

/**
 * `mt.publishPost`: a draft is published (now, or scheduled when its date is ahead); a post already
 * public or scheduled is left as it is (nothing to announce).
 */
export async function publishPost(
  ctx: PublishingContext,
  caller: Caller,
  postId: number,
  headers: BusHeaders,
): Promise<void> {
  const { post } = await ownPost(ctx, caller, postId);
  if (post.status === 'draft') await editPost(ctx, caller, postId, { status: 'publish' }, headers);
}

/**
 * `mt.setPostCategories`: the post's chosen categories become those of `refs` (ids of the site's
 * categories), the one marked primary first; its tags stay.
 */
export async function setPostCategories(
  ctx: PublishingContext,
  caller: Caller,
  postId: number,
  refs: { id: number; primary: boolean }[],
  headers: BusHeaders,
): Promise<void> {
  const { post } = await ownPost(ctx, caller, postId);
  const primary = refs.findIndex((r) => r.primary);
  const ordered = primary > 0 ? [refs[primary]!, ...refs.filter((_, i) => i !== primary)] : refs;
  const categories = await Promise.all(ordered.map((r) => categoryOfSite(ctx, post.siteId, r.id)));
  await editPost(ctx, caller, postId, { categories: categories.map((c) => c.name) }, headers);
}

/** The site's posts, newest first (drafts and scheduled ones too: this is the owner's view). */
export async function listPosts(
  ctx: PublishingContext,
  site: SiteDoc,
  count: number,
  offset: number,
): Promise<PostDoc[]> {
  // A limit of 0 means "no limit" to the store; a count of 0 means none.
  if (count <= 0) return [];
  return ctx.store.postsOfSite(site._id, Math.min(count, MAX_LIST_COUNT), offset);
}
