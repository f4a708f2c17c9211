// Recap jobs: building a requested recap (cached per user and set of entries), and the weekly recap
// email sent through identity's mailer on the user's chosen day.
import { identity, mail } from '@murmur/contracts';
import { escapeHtml } from '@murmur/platform';
import type { ReaderContext } from '../domain/context.js';
import { loadEntries } from '../domain/entries.js';
import { groupRecap, recapText, renderRecap, type RecapGroup } from '../domain/recap.js';
import type { EntryDoc } from '../store.js';

export const RECAP_TTL_MS = 7 * 24 * 60 * 60_000;
/** Keeps the email within the mail contract's size limits. */
export const WEEKLY_MAX_ENTRIES = 200;

export interface RecapBuildPayload {
  userId: number;
  key: string;
  ids: number[];
}

export interface RecapEmailPayload {
  userId: number;
  /** `YYYY-MM-DD` (UTC) the email is for. */
  date: string;
}

async function feedTitles(ctx: ReaderContext, userId: number, entries: EntryDoc[]) {
  const view = await ctx.views.get(userId);
  const feeds = await ctx.store.feeds.find({ _id: { $in: [...new Set(entries.map((e) => e.feedId))] } });
  const titles = new Map(feeds.map((f) => [f._id, f.title ?? new URL(f.url).host]));
  return (feedId: number) => view.subscriptionByFeed.get(feedId)?.title ?? titles.get(feedId) ?? 'Feed';
}

/** Groups, and the summariser's texts when it is configured and answers; never fails because of it. */
async function prepare(ctx: ReaderContext, userId: number, entries: EntryDoc[]) {
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

export async function buildRecap(ctx: ReaderContext, payload: RecapBuildPayload): Promise<void> {
  const entries = await loadEntries(ctx.store, payload.ids);
  const { groups, summaries } = await prepare(ctx, payload.userId, entries);
  const now = ctx.clock.nowDate();
  await ctx.store.recaps.updateOne(
    { _id: payload.key },
    {
      $set: { status: 'ready', html: renderRecap(groups, summaries), updatedAt: now },
      $setOnInsert: {
        userId: payload.userId,
        ids: payload.ids,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RECAP_TTL_MS),
      },
    },
    { upsert: true },
  );
}

function emailDocument(groups: RecapGroup[], fragment: string): string {
  const count = groups.reduce((n, g) => n + g.items.length, 0);
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<title>Your weekly reading recap</title></head><body>' +
    `<h1>Your weekly reading recap</h1><p>${escapeHtml(`${count} entries from the last 7 days.`)}</p>` +
    `${fragment}</body></html>\n`
  );
}

/** The user's unread and starred entries that arrived in the 7 days before now, newest first. */
async function weeklyEntries(ctx: ReaderContext, userId: number): Promise<EntryDoc[]> {
  const view = await ctx.views.get(userId);
  const since = (ctx.clock.nowDate().getTime() - 7 * 24 * 60 * 60_000) * 1000;
  const ids: number[] = [];
  for (let i = 0; i < view.ids.length && ids.length < WEEKLY_MAX_ENTRIES; i++) {
    if (view.times[i]! < since) break;
    const id = view.ids[i]!;
    if (view.unread.has(id) || view.starred.has(id)) ids.push(id);
  }
  return loadEntries(ctx.store, ids);
}

/**
 * Sends the email for `payload.date` once. A failure is retried by the queue; after the last attempt
 * the day counts as done anyway (logged), so a missing mailer does not queue the job again and again.
 */
export async function sendWeeklyRecap(
  ctx: ReaderContext,
  payload: RecapEmailPayload,
  attempt: { attempts: number; maxAttempts: number } = { attempts: 1, maxAttempts: 1 },
): Promise<void> {
  const settings = await ctx.store.recapSettings.findOne({ _id: payload.userId });
  if (!settings || settings.dayofweek === '' || settings.lastSentOn === payload.date) return;
  const markSent = () =>
    ctx.store.recapSettings.updateOne({ _id: payload.userId }, { $set: { lastSentOn: payload.date } });
  try {
    await sendRecapMail(ctx, payload, markSent);
  } catch (err) {
    if (attempt.attempts >= attempt.maxAttempts) {
      ctx.logger.error(
        { err, userId: payload.userId },
        'weekly recap email failed for the last time; skipped',
      );
      await markSent();
    }
    throw err;
  }
}

async function sendRecapMail(
  ctx: ReaderContext,
  payload: RecapEmailPayload,
  markSent: () => Promise<unknown>,
): Promise<void> {
  const entries = await weeklyEntries(ctx, payload.userId);
  if (entries.length === 0) return void (await markSent());
  const { user } = await ctx.bus.request(identity.usersGet, { id: payload.userId });
  if (!user || !user.email) return void (await markSent());

  const { groups, summaries } = await prepare(ctx, payload.userId, entries);
  await ctx.bus.request(mail.mailSend, {
    to: user.email,
    subject: 'Your weekly reading recap',
    text: `Your weekly reading recap\n\n${recapText(groups, summaries)}\n`,
    html: emailDocument(groups, renderRecap(groups, summaries)),
  });
  await markSent();
}
