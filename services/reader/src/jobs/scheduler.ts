// What runs on its own: every tick, feeds that are due get a refresh job; once a day, retention for
// feeds nobody subscribes to and icon refreshes; WebSub renewals and retries; from 08:00 UTC, the weekly recap emails of the day.
// Every replica ticks; job keys and the `schedule` markers make sure work is queued once. The
// scheduler only queues jobs: the work itself is the jobs' (jobs/index.ts).
import { enqueueJob } from '@murmur/jobs';
import { DuplicateKeyError } from '@murmur/store';
import type { ReaderContext } from '../domain/context.js';
import { queueFeedRefresh, queueIconRefresh } from '../domain/jobs.js';
import { enqueueDueWebSub } from '../domain/websub.js';
import { DAYS } from '../store/index.js';
import { ICON_MAX_AGE_MS } from './icons.js';
import { recapEmailJob } from './recap-email.js';

const DAY_MS = 24 * 60 * 60_000;
/** A feed handed to the queue is not handed again for this long (its job sets the real next check). */
const CLAIM_MS = 10 * 60_000;
const DUE_BATCH = 1000;
export const RECAP_EMAIL_HOUR_UTC = 8;

/** True for the one caller (across replicas) that may run the periodic task `name` now. */
async function claimPeriodic(ctx: ReaderContext, name: string, everyMs: number): Promise<boolean> {
  const now = ctx.clock.nowDate();
  const claimed = await ctx.store.claimScheduleMarker(name, new Date(now.getTime() - everyMs), now);
  if (claimed) return true;
  try {
    await ctx.store.insertScheduleMarker(name, now);
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
}

export async function enqueueDueFeeds(ctx: ReaderContext): Promise<number> {
  const now = ctx.clock.nowDate().getTime();
  const due = await ctx.store.dueFeeds(new Date(now), DUE_BATCH);
  let queued = 0;
  for (const feed of due) {
    const subscribed = feed.subscriberCount > 0;
    if (subscribed) {
      await queueFeedRefresh(ctx, feed._id);
      queued++;
    }
    await ctx.store.setNextCheck(feed._id, new Date(now + (subscribed ? CLAIM_MS : DAY_MS)));
  }
  return queued;
}

/** Retention of feeds nobody subscribes to (subscribed ones are pruned when polled). */
export async function enqueueRetention(ctx: ReaderContext): Promise<void> {
  const idle = await ctx.store.unsubscribedFeeds();
  for (const feed of idle) {
    await queueFeedRefresh(ctx, feed._id);
  }
}

export async function enqueueIconRefreshes(ctx: ReaderContext): Promise<void> {
  const feeds = await ctx.store.sitesOfSubscribedFeeds();
  const sites = new Map(feeds.map((f) => [f.siteHost, f.siteUrl ?? `${new URL(f.url).origin}/`]));
  const stale = new Date(ctx.clock.nowDate().getTime() - ICON_MAX_AGE_MS);
  const fresh = await ctx.store.iconsCheckedSince([...sites.keys()], stale);
  for (const icon of fresh) sites.delete(icon._id);
  for (const [host, siteUrl] of sites) {
    await queueIconRefresh(ctx, { host, siteUrl });
  }
}

/** From 08:00 UTC, a job per user whose recap day is today and who has not had it yet. */
export async function enqueueRecapEmails(ctx: ReaderContext): Promise<number> {
  const now = ctx.clock.nowDate();
  if (now.getUTCHours() < RECAP_EMAIL_HOUR_UTC) return 0;
  const day = DAYS[(now.getUTCDay() + 6) % 7]!;
  const date = now.toISOString().slice(0, 10);
  const users = await ctx.store.recapSettingsOfDay(day);
  let queued = 0;
  for (const settings of users) {
    if (settings.lastSentOn === date) continue;
    await enqueueJob(
      ctx.jobs,
      recapEmailJob,
      { userId: settings._id, date },
      { key: `recap-email:${settings._id}:${date}`, maxAttempts: 3 },
    );
    queued++;
  }
  return queued;
}

export async function tick(ctx: ReaderContext): Promise<void> {
  await enqueueDueFeeds(ctx);
  await enqueueDueWebSub(ctx);
  if (await claimPeriodic(ctx, 'retention', DAY_MS)) await enqueueRetention(ctx);
  if (await claimPeriodic(ctx, 'icons', DAY_MS)) await enqueueIconRefreshes(ctx);
  await enqueueRecapEmails(ctx);
}

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: ReaderContext,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    const run = () => {
      this.running ??= tick(this.ctx)
        .catch((err: unknown) => this.ctx.logger.error({ err }, 'scheduler tick failed'))
        .finally(() => (this.running = undefined));
    };
    this.timer = setInterval(run, this.intervalMs);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
