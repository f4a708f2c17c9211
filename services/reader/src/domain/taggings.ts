// Taggings (a feed in a folder) and tags (the folders), beyond the interface for Feedbin clients.
// Tags are created with their first tagging; renaming merges into an existing tag of the new name.
import { DuplicateKeyError, nextId } from '@murmur/platform';
import type { TagDoc, TaggingDoc } from '../store.js';
import type { ReaderContext } from './context.js';

/** Taggings and tags are part of what the user's ETags and Last-Modified cover. */
async function changed(ctx: ReaderContext, userId: number): Promise<void> {
  const state = await ctx.states.touch(userId, ['taggings']);
  ctx.views.afterWrite({ _id: userId, ...state }, () => undefined);
}

export async function listTaggings(ctx: ReaderContext, userId: number): Promise<TaggingDoc[]> {
  const taggings = await ctx.store.taggings.find({ userId });
  return taggings.sort((a, b) => a._id - b._id);
}

export async function userTagging(
  ctx: ReaderContext,
  userId: number,
  id: number,
): Promise<TaggingDoc | null> {
  return ctx.store.taggings.findOne({ _id: id, userId });
}

export async function listTags(ctx: ReaderContext, userId: number): Promise<TagDoc[]> {
  const tags = await ctx.store.tags.find({ userId });
  return tags.sort((a, b) => a.name.localeCompare(b.name) || a._id - b._id);
}

async function ensureTag(ctx: ReaderContext, userId: number, name: string): Promise<void> {
  if (await ctx.store.tags.findOne({ userId, name })) return;
  try {
    await ctx.store.tags.insertOne({ _id: await nextId(ctx.store.raw, 'tags'), userId, name });
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
  const existing = await ctx.store.taggings.findOne({ userId, feedId, name });
  if (existing) return { tagging: existing, created: false };
  await ensureTag(ctx, userId, name);
  const tagging: TaggingDoc = { _id: await nextId(ctx.store.raw, 'taggings'), userId, feedId, name };
  try {
    await ctx.store.taggings.insertOne(tagging);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const winner = await ctx.store.taggings.findOne({ userId, feedId, name });
    if (!winner) throw err;
    return { tagging: winner, created: false };
  }
  await changed(ctx, userId);
  return { tagging, created: true };
}

export async function deleteTagging(ctx: ReaderContext, userId: number, id: number): Promise<boolean> {
  const r = await ctx.store.taggings.deleteOne({ _id: id, userId });
  if (r.deletedCount > 0) await changed(ctx, userId);
  return r.deletedCount > 0;
}

export async function renameTag(ctx: ReaderContext, userId: number, from: string, to: string): Promise<void> {
  if (from === to) return;
  const taggings = await ctx.store.taggings.find({ userId, name: from });
  if (taggings.length > 0) await ensureTag(ctx, userId, to);
  for (const t of taggings) {
    // The feed may already carry the new name: then the old tagging simply goes.
    const clash = await ctx.store.taggings.findOne({ userId, feedId: t.feedId, name: to });
    if (clash) await ctx.store.taggings.deleteOne({ _id: t._id });
    else await ctx.store.taggings.updateOne({ _id: t._id }, { $set: { name: to } });
  }
  const tag = await ctx.store.tags.findOne({ userId, name: from });
  if (tag) {
    if (await ctx.store.tags.findOne({ userId, name: to })) await ctx.store.tags.deleteOne({ _id: tag._id });
    else await ctx.store.tags.updateOne({ _id: tag._id }, { $set: { name: to } });
  }
  await changed(ctx, userId);
}

export async function deleteTag(ctx: ReaderContext, userId: number, name: string): Promise<void> {
  await ctx.store.taggings.deleteMany({ userId, name });
  await ctx.store.tags.deleteMany({ userId, name });
  await changed(ctx, userId);
}
