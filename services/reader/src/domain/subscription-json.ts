// The Feedbin Subscription (docs/api/reader.md "Subscriptions"), typed by the route's response schema.
import type { z } from 'zod';
import { formatReaderTime } from '@murmur/core';
import type { subscriptionSchema } from '../shapes.js';
import type { SubscriptionView } from './views.js';

export type SubscriptionJson = z.input<typeof subscriptionSchema>;

export function subscriptionJson(sub: SubscriptionView, extended: boolean): SubscriptionJson {
  const feed = sub.feed;
  const out: SubscriptionJson = {
    id: sub.id,
    created_at: formatReaderTime(BigInt(sub.createdAt)),
    feed_id: sub.feedId,
    title: sub.title ?? feed.title ?? new URL(feed.url).host,
    feed_url: feed.url,
    site_url: feed.siteUrl ?? `${new URL(feed.url).origin}/`,
  };
  if (extended) {
    out.json_feed = feed.jsonFeed;
    // Beyond Feedbin: how polling of the feed goes (docs/api/reader.md "Feed polling").
    out.last_error = feed.lastError;
    out.last_checked_at = feed.lastCheckedAt ? formatReaderTime(feed.lastCheckedAt) : null;
    out.next_check_at = formatReaderTime(feed.nextCheckAt);
  }
  return out;
}
