// Subscriptions (docs/api/reader.md "Subscriptions"): create from a feed or site URL, rename,
// delete. A new subscription makes the feed's newest 100 entries unread for that user.
import { badRequest } from '@murmur/core';
import { DuplicateKeyError, nextId } from '@murmur/store';
import { discoverFeeds, type VerifiedFeed } from '../feeds/discover.js';
import type { FeedDoc, SubscriptionDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { feedFromDiscovery } from './feeds.js';
import { queueFeedRefresh } from './jobs.js';
import type { SubscriptionView, UserView } from './views.js';
import { afterLastSubscriber, considerWebSub } from './websub.js';

export const NEW_SUBSCRIPTION_UNREAD = 100;

export interface FeedChoice {
  feed_url: string;
  title: string;
  is_json_feed: boolean;
}

export type SubscribeOutcome =
  | { kind: 'created' | 'existing'; subscription: SubscriptionView }
  | { kind: 'choices'; choices: FeedChoice[] }
  | { kind: 'none' };

/**
 * `feed_url` as given by a client: trimmed, `https://` added when there is no scheme, http(s) only,
 * at most 2048 characters, without fragment. Throws 400 naming `param`.
 */
export function normaliseFeedInput(raw: string, param: string): string {
  let text = raw.trim();
  if (text === '') throw badRequest('Missing parameter: feed_url', param);
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text) || /^[^:/]+:\d+(\/|$)/.test(text))
    text = `https://${text.replace(/^\/+/, '')}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest('Must be an http or https URL', param);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw badRequest('Must be an http or https URL', param);
  }
  url.hash = '';
  if (url.href.length > 2048) throw badRequest('Must be at most 2048 characters', param);
  return url.href;
}

function viewOf(doc: SubscriptionDoc, feed: FeedDoc): SubscriptionView {
  return { id: doc._id, feedId: doc.feedId, title: doc.title, createdAt: doc.createdAt, feed };
}

/** 400 naming the cap when the user has READER_SUBSCRIPTIONS_PER_USER subscriptions already. */
async function checkSubscriptionCap(ctx: ReaderContext, userId: number): Promise<void> {
  const count = await ctx.store.subscriptionCountOfUser(userId);
  if (count >= ctx.config.READER_SUBSCRIPTIONS_PER_USER) {
    throw badRequest(
      `At most ${ctx.config.READER_SUBSCRIPTIONS_PER_USER} subscriptions per user`,
      'feed_url',
    );
  }
}

export async function subscribe(ctx: ReaderContext, userId: number, url: string): Promise<SubscribeOutcome> {
  // A URL that is already a known feed needs no fetch: it is polled anyway.
  let feed = await ctx.store.feedByUrl(url);
  let found: VerifiedFeed | undefined;
  if (feed) {
    const existing = await ctx.store.subscriptionOfFeed(userId, feed._id);
    if (existing) return { kind: 'existing', subscription: viewOf(existing, feed) };
  }
  // Before discovery: a user at the cap makes the reader fetch nothing.
  await checkSubscriptionCap(ctx, userId);
  if (!feed) {
    const discovered = await discoverFeeds(ctx.fetcher, url, undefined, ctx.parsing.parse);
    if (discovered.length === 0) return { kind: 'none' };
    if (discovered.length > 1) {
      return {
        kind: 'choices',
        choices: discovered.map((f) => ({
          feed_url: f.url,
          title: f.feed.title ?? new URL(f.url).host,
          is_json_feed: f.feed.format === 'json',
        })),
      };
    }
    found = discovered[0]!;
    feed = await feedFromDiscovery(ctx, found);
    const existing = await ctx.store.subscriptionOfFeed(userId, feed._id);
    if (existing) return { kind: 'existing', subscription: viewOf(existing, feed) };
  }
  const doc: SubscriptionDoc = {
    _id: await nextId(ctx.store.raw, 'subscriptions'),
    userId,
    feedId: feed._id,
    title: null,
    createdAt: Number(ctx.clock.now()),
    updatedAt: ctx.clock.nowDate(),
  };
  try {
    await ctx.store.insertSubscription(doc);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const winner = await ctx.store.subscriptionOfFeed(userId, feed._id);
    if (!winner) throw err;
    return { kind: 'existing', subscription: viewOf(winner, feed) };
  }
  const timeline = await ctx.store.timelineOfFeed(feed._id);
  const newest = timeline ? timeline.ids.slice(-NEW_SUBSCRIPTION_UNREAD) : [];
  // One step (one fsync wait on the embedded store, in this order on MongoDB). The state is written
  // last: it increments the user's version, so views built before it rebuild.
  await ctx.store.together([
    () => ctx.store.changeSubscriberCount(feed._id, 1),
    // Appended to the arrived ids (no read of the user's unread set, which may hold tens of
    // thousands): an id that is unread already stays one unread id (domain/states.ts, unreadOf).
    () => ctx.states.pushUnread(userId, newest, ['subscriptions']),
  ]);
  // A feed found just now may name a hub: the reader subscribes there (a known feed's poll sees to it).
  if (found?.websub) await considerWebSub(ctx, feed._id, found.websub);
  return { kind: 'created', subscription: viewOf(doc, feed) };
}

/**
 * The subscriptions as shown: in extended mode with their feeds' polling state read fresh (it changes
 * without the user doing anything, so the cached view may be behind).
 */
export async function withFreshFeeds(
  ctx: ReaderContext,
  subs: SubscriptionView[],
  extended: boolean,
): Promise<SubscriptionView[]> {
  if (!extended) return subs;
  const feeds = await ctx.store.feedsByIds(subs.map((s) => s.feedId));
  const byId = new Map(feeds.map((f) => [f._id, f]));
  return subs.map((s) => ({ ...s, feed: byId.get(s.feedId) ?? s.feed }));
}

/** Queues a refresh of the subscription's feed (anyone may ask; one job per feed at a time). */
export async function requestRefresh(ctx: ReaderContext, sub: SubscriptionView): Promise<void> {
  await queueFeedRefresh(ctx, sub.feedId);
}

export function ownSubscription(view: UserView, id: number): SubscriptionView | undefined {
  return view.subscriptions.find((s) => s.id === id);
}

/** Renames (title trimmed, 1–255 characters, checked by the route). */
export async function renameSubscription(
  ctx: ReaderContext,
  sub: SubscriptionView,
  userId: number,
  title: string,
) {
  await ctx.store.renameSubscription(sub.id, userId, title, ctx.clock.nowDate());
  const state = await ctx.states.touch(userId, ['subscriptions']);
  ctx.views.afterWrite({ _id: userId, ...state }, (view) => {
    const own = ownSubscription(view, sub.id);
    if (own) own.title = title;
  });
  return { ...sub, title };
}

/** Removes the subscription, its taggings and the user's unread entries of that feed. */
export async function unsubscribe(
  ctx: ReaderContext,
  sub: SubscriptionView,
  userId: number,
): Promise<boolean> {
  if (!(await ctx.store.deleteSubscription(sub.id, userId))) return false;
  await ctx.store.changeSubscriberCount(sub.feedId, -1);
  // The last reader of the feed gone: so is the reader's subscription at its hub.
  await afterLastSubscriber(ctx, sub.feedId);
  await ctx.store.deleteTaggingsOfFeed(userId, sub.feedId);
  const timeline = await ctx.store.timelineOfFeed(sub.feedId);
  const ofFeed = timeline?.ids ?? [];
  await ctx.states.change(userId, null, (current) => ({
    markRead: ofFeed.filter((id) => current.unread.has(id)),
  }));
  await ctx.states.touch(userId, ['subscriptions', 'taggings']);
  return true;
}
