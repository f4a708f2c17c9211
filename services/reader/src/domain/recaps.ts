// Recaps as the user asks for them (docs/api/reader.md "Recap"): one cached recap per user and set of
// visible entries, built by a job while the client polls, and the weekly recap email settings.
import { createHash } from 'node:crypto';
import { badRequest } from '@murmur/core';
import { enqueueJob } from '@murmur/jobs';
import { DuplicateKeyError } from '@murmur/store';
import type { Day, EntryDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { visibleEntries } from './entries.js';
import { recapBuildJob } from './jobs.js';
import { groupRecap } from './recap.js';

/** How long a built recap is kept (the same entries asked for again within it are answered at once). */
export const RECAP_TTL_MS = 7 * 24 * 60 * 60_000;
/** A build that has not finished in this long is queued again (its worker may have died). */
const STALE_BUILD_MS = 2 * 60_000;

export type RecapAnswer = { status: 'ready'; html: string } | { status: 'building' };

async function feedTitles(ctx: ReaderContext, userId: number, entries: EntryDoc[]) {
  const view = await ctx.views.get(userId);
  const feeds = await ctx.store.feedsByIds([...new Set(entries.map((e) => e.feedId))]);
  const titles = new Map(feeds.map((f) => [f._id, f.title ?? new URL(f.url).host]));
  return (feedId: number) => view.subscriptionByFeed.get(feedId)?.title ?? titles.get(feedId) ?? 'Feed';
}

/** Groups, and the summariser's texts when it is configured and answers; never fails because of it. */
export async function prepareRecap(ctx: ReaderContext, userId: number, entries: EntryDoc[]) {
  const groups = groupRecap(entries, await feedTitles(ctx, userId, entries));
  let summaries: Map<number, string> | undefined;
  if (ctx.summariser) {
    try {
      const items = groups.flatMap((g) => g.items).map((i) => ({ id: i.id, title: i.title, text: i.lead }));
      const byId = new Map(entries.map((e) => [e._id, e]));
      for (const item of items) item.text = byId.get(item.id)?.summary || item.text;
      summaries = await ctx.summariser.summarise(items);
    } catch (err) {
      ctx.logger.warn({ err }, 'recap summariser failed; using the extractive recap');
    }
  }
  return { groups, summaries };
}

/**
 * The recap of the visible ones among `ids`: ready (cached), or building (a job was queued, or one
 * is under way). `reset` drops a cached recap first. 400 when none of the entries is visible.
 */
export async function requestRecap(
  ctx: ReaderContext,
  userId: number,
  ids: number[],
  reset: boolean,
): Promise<RecapAnswer> {
  const view = await ctx.views.get(userId);
  const visible = (await visibleEntries(ctx.store, view, ids)).map((e) => e._id).sort((a, b) => a - b);
  if (visible.length === 0) throw badRequest('ids: none of these entries can be recapped', 'ids');
  const key = `${userId}:${createHash('sha256').update(visible.join(',')).digest('hex')}`;
  if (reset) await ctx.store.deleteRecap(key);

  const now = ctx.clock.nowDate();
  const cached = await ctx.store.recapByKey(key);
  if (cached?.status === 'ready' && cached.html !== null) return { status: 'ready', html: cached.html };
  let queue = cached !== null && now.getTime() - cached.updatedAt.getTime() > STALE_BUILD_MS;
  if (!cached) {
    try {
      await ctx.store.insertRecap({
        _id: key,
        userId,
        ids: visible,
        status: 'building',
        html: null,
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(now.getTime() + RECAP_TTL_MS),
      });
      queue = true;
    } catch (err) {
      // A concurrent request started the same build.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }
  if (queue) {
    await enqueueJob(
      ctx.jobs,
      recapBuildJob,
      { userId, key, ids: visible },
      { key: `recap:${key}`, maxAttempts: 2 },
    );
  }
  return { status: 'building' };
}

/** The weekly recap email day, or `''` when it is off. */
export async function recapEmailDay(ctx: ReaderContext, userId: number): Promise<Day | ''> {
  const settings = await ctx.store.recapSettingsOfUser(userId);
  return settings?.dayofweek ?? '';
}

export async function setRecapEmailDay(ctx: ReaderContext, userId: number, day: Day | ''): Promise<Day | ''> {
  await ctx.store.setRecapEmailDay(userId, day);
  return day;
}
