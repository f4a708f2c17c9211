// Read state of the tracked channels (docs/api/microsub.md "Read state"). An item is unread when it is
// newer than the channel's read marker — set to "now" when the user first uses Microsub — and was not
// marked read, or when it was marked unread. `remove` hides an item from one channel for one user.
// Counts are computed from the timeline's positions when asked (feeds.timeline.positions: no post
// bodies), so a mark is reflected by the very next request.
import { type BusHeaders } from '@murmur/bus';
import { internalError } from '@murmur/core';
import type { ChannelState, ChannelStateDoc } from '../store.js';
import { TRACKED_BUILT_IN, type Channel, type SourcedChannel } from './channels.js';
import type { MicrosubContext } from './context.js';
import { isNewer, newest, positionIdOf, type Position } from './positions.js';
import { findPositions, positionsNewerThan, walk } from './source.js';

/** Ids kept per list; the oldest fall off first (docs/api/microsub.md "Limits"). */
export const MAX_READ_IDS = 10_000;
export const MAX_UNREAD_IDS = 1_000;
export const MAX_REMOVED_IDS = 10_000;

export async function channelState(
  ctx: MicrosubContext,
  userId: number,
  channel: Channel,
): Promise<ChannelStateDoc> {
  // Published times travel in whole seconds: a post of the current second, published after this
  // first request, must count as new, so the marker stands just before the current second.
  const second = Math.floor(ctx.clock.nowMs() / 1000) * 1000;
  return ctx.store.channelState(userId, channel.uid, { ms: second - 1, id: Number.MAX_SAFE_INTEGER });
}

/**
 * Every Microsub request — a follow, a search, a read — makes sure the user's tracked channels have
 * their state, so the read marker stands at the user's first Microsub request of any kind. A follow
 * followed by posts in the same second would otherwise find them read if the first read of a timeline
 * came a second later (issue 37, finding 6). Costs nothing once this process has seen the states.
 */
export async function startReadState(ctx: MicrosubContext, userId: number): Promise<void> {
  await Promise.all(
    TRACKED_BUILT_IN.filter((c) => !ctx.store.knowsChannelState(userId, c.uid)).map((c) =>
      channelState(ctx, userId, c),
    ),
  );
}

/** Answers "is it read" and "is it removed" for one request's items. */
export class ReadView {
  private readonly read: Set<string>;
  private readonly unread: Set<string>;
  private readonly removed: Set<string>;
  readonly marker: Position;

  constructor(readonly state: ChannelStateDoc) {
    this.read = new Set(state.read);
    this.unread = new Set(state.unread.map((u) => u.id));
    this.removed = new Set(state.removed);
    this.marker = { ms: state.markerMs, id: state.markerId };
  }

  isRemoved(id: string): boolean {
    return this.removed.has(id);
  }

  isRead(id: string, pos: Position): boolean {
    if (this.unread.has(id)) return false;
    return this.read.has(id) || !isNewer(pos, this.marker);
  }
}

/** Unread items of a tracked channel (counting stops after MICROSUB_SCAN_LIMIT items newer than the marker). */
export async function unreadCount(
  ctx: MicrosubContext,
  userId: number,
  channel: SourcedChannel,
  headers: BusHeaders,
): Promise<number> {
  const view = new ReadView(await channelState(ctx, userId, channel));
  let count = 0;
  for (const { id, pos } of await positionsNewerThan(ctx, userId, channel.source, view.marker, headers)) {
    if (!view.isRemoved(id) && !view.isRead(id, pos)) count += 1;
  }
  for (const u of view.state.unread) {
    if (!view.isRemoved(u.id) && !isNewer({ ms: u.ms, id: positionIdOf(u.id) }, view.marker)) count += 1;
  }
  return count;
}

const WRITE_ATTEMPTS = 8;

/**
 * Compare-and-set on the state document: `change` is applied to the newest state until it sticks.
 * The first attempt starts from the state this process last read or wrote (a client's mark usually
 * follows its timeline read), so it is one store write; a state changed since (another request,
 * another replica) fails the compare-and-set and is read again.
 */
async function update(
  ctx: MicrosubContext,
  userId: number,
  channel: Channel,
  change: (state: ChannelState) => ChannelState,
): Promise<void> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const guess = attempt === 0 ? ctx.store.lastSeenChannelState(userId, channel.uid) : undefined;
    const current = guess ?? (await channelState(ctx, userId, channel));
    if (await ctx.store.replaceChannelState(current, change(current))) return;
  }
  throw internalError(
    new Error(`channel state ${userId}:${channel.uid} kept changing under ${WRITE_ATTEMPTS} writes`),
  );
}

function capped<T>(list: T[], max: number): T[] {
  return list.length > max ? list.slice(list.length - max) : list;
}

function union(list: string[], add: readonly string[], max: number): string[] {
  const have = new Set(list);
  const out = [...list];
  for (const id of add) {
    if (!have.has(id)) {
      have.add(id);
      out.push(id);
    }
  }
  return capped(out, max);
}

/** `mark_read` with entries. Unknown ids change nothing a client can see (counts come from the timeline). */
export async function markRead(
  ctx: MicrosubContext,
  userId: number,
  channel: Channel,
  entries: readonly string[],
): Promise<void> {
  if (!channel.tracked) return;
  const ids = new Set(entries);
  await update(ctx, userId, channel, (s) => ({
    ...s,
    read: union(s.read, entries, MAX_READ_IDS),
    unread: s.unread.filter((u) => !ids.has(u.id)),
  }));
}

/** `mark_unread`: items newer than the marker just lose their mark; older ones are listed as unread. */
export async function markUnread(
  ctx: MicrosubContext,
  userId: number,
  channel: SourcedChannel,
  entries: readonly string[],
  headers: BusHeaders,
): Promise<void> {
  const ids = new Set(entries);
  const found = await findPositions(ctx, userId, channel.source, [...ids], headers);
  await update(ctx, userId, channel, (s) => {
    const marker = { ms: s.markerMs, id: s.markerId };
    const listed = new Set(s.unread.map((u) => u.id));
    const unread = [...s.unread];
    for (const [id, pos] of found) {
      if (!isNewer(pos, marker) && !listed.has(id)) unread.push({ id, ms: pos.ms });
    }
    return { ...s, read: s.read.filter((id) => !ids.has(id)), unread: capped(unread, MAX_UNREAD_IDS) };
  });
}

/**
 * `last_read_entry`: that item and every older one read. The marker moves to the item (never back);
 * marks that the new marker makes redundant are dropped. An id not in the channel changes nothing.
 */
export async function markReadThrough(
  ctx: MicrosubContext,
  userId: number,
  channel: SourcedChannel,
  entry: string,
  headers: BusHeaders,
): Promise<void> {
  let target: Position | undefined;
  const newer: string[] = [];
  await walk(
    ctx,
    userId,
    channel.source,
    undefined,
    ({ item, pos }) => {
      if (entry === 'everything' || item.id === entry) {
        target = pos;
        return false;
      }
      newer.push(item.id);
      return true;
    },
    { headers, first: entry === 'everything' ? 1 : 20 },
  );
  if (!target) return;
  const through = target;
  const stillNewer = new Set(newer);
  await update(ctx, userId, channel, (s) => {
    const old = { ms: s.markerMs, id: s.markerId };
    const marker = newest(old, through);
    const moved = marker !== old;
    return {
      ...s,
      markerMs: marker.ms,
      markerId: marker.id,
      // Only the marks of items still newer than a moved marker mean anything.
      read: moved ? s.read.filter((id) => stillNewer.has(id)) : s.read,
      unread: s.unread.filter((u) => isNewer({ ms: u.ms, id: positionIdOf(u.id) }, through)),
    };
  });
}

/** `remove`: hidden from this channel's timeline for this user (any channel). */
export async function removeEntries(
  ctx: MicrosubContext,
  userId: number,
  channel: Channel,
  entries: readonly string[],
): Promise<void> {
  const ids = new Set(entries);
  await update(ctx, userId, channel, (s) => ({
    ...s,
    removed: union(s.removed, entries, MAX_REMOVED_IDS),
    unread: s.unread.filter((u) => !ids.has(u.id)),
  }));
}
