// A user's channels (docs/api/microsub.md "Channels"): the four built-in ones and those the user
// created, in the user's order and with the names the user gave, kept in one document per user
// (store.ts, `channellists`; a user who never changed them has none and sees the built-in list).
// Which feeds timeline fills each channel, which keep read state and which take follows.
import type { feeds } from '@murmur/contracts';
import { notFound } from '@murmur/core';
import type { ChannelEntry } from '../store.js';
import type { MicrosubContext } from './context.js';

/** What fills a channel: a feeds timeline, and in `default` also the open web's entries. */
export interface ChannelSource {
  kind: feeds.TimelineKind;
  /** Kind `default` only: the follow channel feeds narrows the timeline to (feeds.timeline.get). */
  channel?: string;
  /** Entries of the feeds followed on the open web (through the reader) are merged in. */
  web: boolean;
}

export interface Channel {
  uid: string;
  name: string;
  /** Read state (`unread`, `_is_read`, mark_read/mark_unread) is kept. */
  tracked: boolean;
  /** What fills it; undefined while nothing does (bookmarks). */
  source?: ChannelSource;
  /** One of the four every user starts with. */
  builtIn: boolean;
  /** Follows can be made into it (`action=follow&channel=…`). */
  holdsFollows: boolean;
}

export type SourcedChannel = Channel & { source: ChannelSource };

export const DEFAULT_UID = 'default';
export const NOTIFICATIONS_UID = 'notifications';

/**
 * The built-in channels in their first order. `notifications` comes first and stays there (the
 * Microsub spec's rule; Monocle opens the first channel listed). `default` holds every follow made
 * outside Microsub, so it cannot be deleted; the other two hold no follows and can.
 */
const BUILT_IN: readonly Channel[] = [
  {
    uid: NOTIFICATIONS_UID,
    name: 'Mentions',
    tracked: true,
    source: { kind: 'mentions', web: false },
    builtIn: true,
    holdsFollows: false,
  },
  {
    uid: DEFAULT_UID,
    name: 'Timeline',
    tracked: true,
    source: { kind: 'default', channel: DEFAULT_UID, web: true },
    builtIn: true,
    holdsFollows: true,
  },
  { uid: 'bookmarks', name: 'Bookmarks', tracked: false, builtIn: true, holdsFollows: false },
  {
    uid: 'discover',
    name: 'Discover',
    tracked: false,
    source: { kind: 'discover', web: false },
    builtIn: true,
    holdsFollows: false,
  },
];

export const BUILT_IN_ENTRIES: readonly ChannelEntry[] = BUILT_IN.map(({ uid, name }) => ({ uid, name }));

const builtInByUid = new Map(BUILT_IN.map((c) => [c.uid, c]));

export function isBuiltIn(uid: string): boolean {
  return builtInByUid.has(uid);
}

/** The tracked built-in channels: their read state starts with the user's first request. */
export const TRACKED_BUILT_IN: readonly SourcedChannel[] = BUILT_IN.filter(
  (c): c is SourcedChannel => c.tracked && c.source !== undefined,
);

/** A channel of the list: a built-in one under the user's name for it, or one the user created. */
export function channelOf(entry: ChannelEntry): Channel {
  const builtIn = builtInByUid.get(entry.uid);
  if (builtIn) return { ...builtIn, name: entry.name };
  return {
    uid: entry.uid,
    name: entry.name,
    tracked: true,
    source: { kind: 'default', channel: entry.uid, web: false },
    builtIn: false,
    holdsFollows: true,
  };
}

/** The user's channels in their order. */
export async function channelsOf(ctx: MicrosubContext, userId: number): Promise<Channel[]> {
  const doc = await ctx.store.channelList(userId);
  return (doc?.channels ?? BUILT_IN_ENTRIES).map(channelOf);
}

export function noSuchChannel(uid: string) {
  return notFound(`channel: no channel "${uid}"`);
}

/**
 * The channel `uid` (default: `default`) of the user, else 404. `default` and `notifications`,
 * which no user can delete, are answered without reading the list (under their built-in names:
 * callers use what fills them, not what they are called).
 */
export async function channelOr404(
  ctx: MicrosubContext,
  userId: number,
  uid: string | undefined,
): Promise<Channel> {
  const wanted = uid ?? DEFAULT_UID;
  if (wanted === DEFAULT_UID || wanted === NOTIFICATIONS_UID) return builtInByUid.get(wanted)!;
  const found = (await channelsOf(ctx, userId)).find((c) => c.uid === wanted);
  if (!found) throw noSuchChannel(wanted);
  return found;
}
