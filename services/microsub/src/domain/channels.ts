// The four fixed channels (docs/api/microsub.md "Channels"): which feeds timeline fills each, and
// which keep read state. Their order is the order clients show; Monocle opens the first.
import type { feeds } from '@murmur/contracts';
import { notFound } from '@murmur/core';

export interface Channel {
  uid: string;
  name: string;
  /** Read state (`unread`, `_is_read`, mark_read/mark_unread) is kept. */
  tracked: boolean;
  /** The feeds timeline behind it; undefined while feeds has none for this channel. */
  kind?: feeds.TimelineKind;
}

export const CHANNELS: readonly Channel[] = [
  { uid: 'default', name: 'Timeline', tracked: true, kind: 'default' },
  { uid: 'notifications', name: 'Mentions', tracked: true, kind: 'mentions' },
  { uid: 'bookmarks', name: 'Bookmarks', tracked: false },
  { uid: 'discover', name: 'Discover', tracked: false },
];

export function channelOr404(uid: string | undefined): Channel {
  const channel = CHANNELS.find((c) => c.uid === (uid ?? 'default'));
  if (!channel) throw notFound(`channel: no channel "${uid}"`);
  return channel;
}
