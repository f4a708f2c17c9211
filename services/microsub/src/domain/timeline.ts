// `action=timeline` (docs/api/microsub.md "Timeline"): a page of a channel, newest first, without the
// user's removed items (and, with `is_read`, only read or unread ones). Older pages continue from a
// hint feeds gave for the page, so paging deep costs what the page costs; newer pages (`after`) are
// read from the top down to the cursor, since those are the few items that arrived since.
import type { z } from 'zod';
import { type BusHeaders } from '@murmur/bus';
import { badRequest } from '@murmur/core';
import type { timelineSchema } from '../shapes.js';
import type { Channel } from './channels.js';
import type { MicrosubContext } from './context.js';
import { entryJson } from './item-json.js';
import { decodeCursor, encodeCursor, invalidCursor, isNewer } from './positions.js';
import { channelState, ReadView } from './read-state.js';
import { walk, type Seen } from './source.js';

export interface TimelineQuery {
  before?: string;
  after?: string;
  limit: number;
  /** Only read (true) or only unread (false) items; tracked channels only. */
  isRead?: boolean;
}

type TimelineJson = z.input<typeof timelineSchema>;

export async function timelinePage(
  ctx: MicrosubContext,
  userId: number,
  channel: Channel,
  query: TimelineQuery,
  headers: BusHeaders,
): Promise<TimelineJson> {
  if (query.before !== undefined && query.after !== undefined) {
    throw badRequest('before and after cannot be used together', 'before');
  }
  const before = query.before === undefined ? undefined : decodeCursor(query.before, 'before');
  const after = query.after === undefined ? undefined : decodeCursor(query.after, 'after');
  if (!channel.source) return { items: [], paging: {} };
  const source = channel.source;
  const view = new ReadView(await channelState(ctx, userId, channel));
  const tracked = channel.tracked;
  const shows = ({ item, pos }: Seen) =>
    !view.isRemoved(item.id) &&
    (!tracked || query.isRead === undefined || view.isRead(item.id, pos) === query.isRead);
  const json = (s: Seen) => entryJson(s.item, tracked ? view.isRead(s.item.id, s.pos) : undefined);

  if (after) {
    // Everything newer than the cursor, then the `limit` closest to it.
    const newer: Seen[] = [];
    let reached = false;
    const end = await walk(
      ctx,
      userId,
      source,
      undefined,
      (seen) => {
        if (!isNewer(seen.pos, after.at)) {
          reached = true;
          return false;
        }
        if (shows(seen)) newer.push(seen);
        return true;
      },
      { headers, param: 'after' },
    );
    if (end.capped) throw invalidCursor('after');
    const page = newer.slice(Math.max(0, newer.length - query.limit));
    const first = page[0];
    const last = page[page.length - 1];
    return {
      items: page.map(json),
      paging: {
        ...(last && reached ? { before: encodeCursor({ at: last.pos, ...hintOf(last) }) } : {}),
        ...(first ? { after: encodeCursor({ at: first.pos }) } : {}),
      },
    };
  }

  const page: Seen[] = [];
  let lastSeen: Seen | undefined;
  let olderExists = false;
  const end = await walk(
    ctx,
    userId,
    source,
    before,
    (seen) => {
      if (page.length === query.limit) {
        olderExists = true;
        return false;
      }
      lastSeen = seen;
      if (shows(seen)) page.push(seen);
      return true;
    },
    { headers, first: Math.min(query.limit + 1, 100), param: 'before' },
  );
  // Stopped by the scan limit: the client continues from the last item looked at.
  if (end.capped) olderExists = true;
  const boundary = end.capped ? lastSeen : page[page.length - 1];
  const first = page[0];
  return {
    items: page.map(json),
    paging: {
      ...(olderExists && boundary ? { before: encodeCursor({ at: boundary.pos, ...hintOf(boundary) }) } : {}),
      ...(first ? { after: encodeCursor({ at: first.pos }) } : {}),
    },
  };
}

function hintOf(seen: Seen): { hint?: string } {
  return seen.hint === undefined ? {} : { hint: seen.hint };
}
