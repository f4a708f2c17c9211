// Taggings (a feed in a folder) and tags (the folders), beyond the interface for Feedbin clients.
// Tags are created with their first tagging; renaming merges into an existing tag of the new name.
import { DuplicateKeyError, nextId } from '@murmur/store';
import type { TagDoc, TaggingDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';

/** Taggings and tags are part of what the user's ETags and Last-Modified cover. */
async function changed(ctx: ReaderContext, userId: number): Promise<void> {
  const state = await ctx.states.touch(userId, ['taggings']);
  ctx.views.afterWrite({ _id: userId, ...state }, () => undefined);
}

export async function listTaggings(ctx: ReaderContext, userId: number): Promise<TaggingDoc[]> {
  const taggings = await ctx.store.taggingsOfUser(userId);
  return taggings.sort((a, b) => a._id - b._id);
}

export async function userTagging(
  ctx: ReaderContext,
  userId: number,
  id: number,
): Promise<TaggingDoc | null> {
  return ctx.store.taggingOfUser(userId, id);
}

export async function listTags(ctx: ReaderContext, userId: number): Promise<TagDoc[]> {
  const tags = await ctx.store.tagsOfUser(userId);
  return tags.sort((a, b) => a.name.localeCompare(b.name) || a._id - b._id);
}

async function ensureTag(ctx: ReaderContext, userId: number, name: string): Promise<void> {
  if (await ctx.store.tagNamed(userId, name)) return;
  try {
    await ctx.store.insertTag({ _id: await nextId(ctx.store.raw, 'tags'), userId, name });
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
  }
}

/** The tagging (created or already there); the caller checked the feed is subscribed. */
export async function tagFeed(
  ctx: ReaderContext,
  userId: number,
  feedId: number,
  name: string,
): Promise<{ tagging: TaggingDoc; created: boolean }> {
  const existing = await ctx.store.taggingOfFeed(userId, feedId, name);
  if (existing) return { tagging: existing, created: false };
  await ensureTag(ctx, userId, name);
  const tagging: TaggingDoc = { _id: await nextId(ctx.store.raw, 'taggings'), userId, feedId, name };
  try {
    await ctx.store.insertTagging(tagging);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const winner = await ctx.store.taggingOfFeed(userId, feedId, name);
    if (!winner) throw err;
    return { tagging: winner, created: false };
  }
  await changed(ctx, userId);
  return { tagging, created: true };
}

export async function deleteTagging(ctx: ReaderContext, userId: number, id: number): Promise<boolean> {
  const deleted = await ctx.store.deleteTaggingOfUser(userId, id);
  if (deleted) await changed(ctx, userId);
  return deleted;
}

export async function renameTag(ctx: ReaderContext, userId: number, from: string, to: string): Promise<void> {
  if (from === to) return;
  const taggings = await ctx.store.taggingsNamed(userId, from);
  if (taggings.length > 0) await ensureTag(ctx, userId, to);
  for (const t of taggings) {
    // The feed may already carry the new name: then the old tagging simply goes.
    const clash = await ctx.store.taggingOfFeed(userId, t.feedId, to);
    if (clash) await ctx.store.deleteTagging(t._id);
    else await ctx.store.renameTagging(t._id, to);
  }
  const tag = await ctx.store.tagNamed(userId, from);
  if (tag) {
    if (await ctx.store.tagNamed(userId, to)) await ctx.store.deleteTagById(tag._id);
    else await ctx.store.renameTagById(tag._id, to);
  }
  await changed(ctx, userId);
}

export async function deleteTag(ctx: ReaderContext, userId: number, name: string): Promise<void> {
  await ctx.store.deleteTaggingsNamed(userId, name);
  await ctx.store.deleteTagsNamed(userId, name);
  await changed(ctx, userId);
}
