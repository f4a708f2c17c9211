// The weekly recap email job: on the user's chosen day, the unread and starred entries of the last
// 7 days, sent through identity's mailer.
import { z } from 'zod';
import { identity, mail } from '@murmur/contracts';
import { escapeHtml } from '@murmur/http';
import { defineJob, type Job } from '@murmur/jobs';
import type { ReaderContext } from '../domain/context.js';
import { loadEntries } from '../domain/entries.js';
import { recapText, renderRecap, type RecapGroup } from '../domain/recap.js';
import { prepareRecap } from '../domain/recaps.js';
import type { EntryDoc } from '../store/index.js';

/** Keeps the email within the mail contract's size limits. */
export const WEEKLY_MAX_ENTRIES = 200;

const recapEmailPayload = z.object({
  userId: z.number().int(),
  /** `YYYY-MM-DD` (UTC) the email is for. */
  date: z.string().regex(/^\d{4}-\d\d-\d\d$/),
});
export type RecapEmailPayload = z.output<typeof recapEmailPayload>;

export const recapEmailJob = defineJob({
  name: 'reader.recap-email.send',
  formerNames: ['reader.recap.email'],
  payload: recapEmailPayload,
  // A failure (identity or its mailer unreachable) is retried; after the last attempt the user gets
  // no email that week (logged), and the next one comes on the next chosen day.
  options: { concurrency: 2 },
  handle: (ctx: ReaderContext, payload, job: Job<RecapEmailPayload>) => sendWeeklyRecap(ctx, payload, job),
});

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
  const settings = await ctx.store.recapSettingsOfUser(payload.userId);
  if (!settings || settings.dayofweek === '' || settings.lastSentOn === payload.date) return;
  const markSent = () => ctx.store.markRecapEmailSent(payload.userId, payload.date);
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

  const { groups, summaries } = await prepareRecap(ctx, payload.userId, entries);
  await ctx.bus.request(mail.mailSend, {
    to: user.email,
    subject: 'Your weekly reading recap',
    text: `Your weekly reading recap\n\n${recapText(groups, summaries)}\n`,
    html: emailDocument(groups, renderRecap(groups, summaries)),
  });
  await markSent();
}
