// Follows of the open web for the microsub service (docs/api/microsub.md "Follows"): a Microsub
// follow of a URL that is not a Murmur user becomes a reader subscription — the reader's discovery,
// fetching and polling — and the entries of the user's subscriptions are listed in the order the
// Microsub timeline uses (published second, then entry id, newest first).
import type { reader } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/core';
import type { ReaderContext } from './context.js';
import { subscribe, unsubscribe } from './subscriptions.js';
import type { SubscriptionView } from './views.js';

function webFeedOf(sub: SubscriptionView): reader.WebFeed {
  return {
    url: sub.feed.url,
    title: sub.title ?? sub.feed.title ?? new URL(sub.feed.url).host,
    siteUrl: sub.feed.siteUrl ?? '',
  };
}

export async function followWebFeed(
  ctx: ReaderContext,
  userId: number,
  url: string,
): Promise<{ found: true; feed: reader.WebFeed } | { found: false }> {
  let outcome = await subscribe(ctx, userId, url);
  // A page linking several feeds: the first is the one a reader would pick.
  if (outcome.kind === 'choices') outcome = await subscribe(ctx, userId, outcome.choices[0]!.feed_url);
  if (outcome.kind === 'created' || outcome.kind === 'existing') {
    return { found: true, feed: webFeedOf(outcome.subscription) };
  }
  return { found: false };
}

function matches(sub: SubscriptionView, url: string): boolean {
  return sub.feed.url === url || sub.feed.siteUrl === url;
}

export async function unfollowWebFeed(ctx: ReaderContext, userId: number, url: string): Promise<boolean> {
  const view = await ctx.views.get(userId);
  const subs = view.subscriptions.filter((s) => matches(s, url));
  for (const sub of subs) await unsubscribe(ctx, sub, userId);
  return subs.length > 0;
}

export async function webFollowsOf(ctx: ReaderContext, userId: number): Promise<reader.WebFeed[]> {
  const view = await ctx.views.get(userId);
  return view.subscriptions.map(webFeedOf);
}

const secondOf = (micros: number) => Math.floor(micros / 1_000_000) * 1000;

/** Entries, newest by arrival across the user's feeds, that the Microsub timeline draws from. */
export const MICROSUB_ENTRY_WINDOW = 1000;

/**
 * The newest `limit` entries of the user's subscribed feeds older than `before`, from the
 * MICROSUB_ENTRY_WINDOW entries that arrived last (the feeds' timelines hold arrival times), so a
 * user with hundreds of feeds costs one bounded read per page.
 */
export async function webEntriesOf(
  ctx: ReaderContext,
  userId: number,
  limit: number,
  before?: { ms: number; entryId: number },
): Promise<reader.WebEntry[]> {
  const view = await ctx.views.get(userId);
  if (view.subscriptions.length === 0) return [];
  const timelines = await ctx.store.timelinesOfFeeds(view.subscriptions.map((s) => s.feedId));
  const arrived = timelines.flatMap((t) => t.ids.map((id, i) => ({ id, time: t.times[i] ?? 0 })));
  arrived.sort((a, b) => b.time - a.time);
  const entries = await ctx.store.entriesByIds(arrived.slice(0, MICROSUB_ENTRY_WINDOW).map((a) => a.id));
  const older = (ms: number, id: number) =>
    !before || ms < before.ms || (ms === before.ms && id < before.entryId);
  const page = entries
    .map((e) => ({ e, ms: secondOf(e.published) }))
    .filter(({ e, ms }) => older(ms, e._id))
    .sort((a, b) => b.ms - a.ms || b.e._id - a.e._id)
    .slice(0, limit);
  return page.map(({ e, ms }) => {
    const sub = view.subscriptionByFeed.get(e.feedId);
    const feedTitle = sub ? webFeedOf(sub).title : '';
    return {
      entryId: e._id,
      url: e.url ?? '',
      title: e.title ?? '',
      contentHtml: e.content ?? '',
      contentText: e.summary,
      publishedAt: formatOffsetTime(new Date(ms)),
      author: { name: e.author ?? feedTitle, url: sub?.feed.siteUrl ?? sub?.feed.url ?? '', photo: '' },
    };
  });
}
