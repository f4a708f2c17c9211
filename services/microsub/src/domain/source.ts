// Timelines come from the feeds service over the bus (feeds.timeline.get); microsub keeps only its own
// read state and removals. `walk` reads a channel newest first, a page at a time, from the top or from
// a cursor, and hands each item to a visitor until it says stop, the timeline ends or the scan limit
// (MICROSUB_SCAN_LIMIT) is reached: the one way this service reads a timeline.
import { feeds, reader } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { isAppError } from '@murmur/core';
import type { ChannelSource } from './channels.js';
import type { MicrosubContext } from './context.js';
import {
  invalidCursor,
  isNewer,
  positionOf,
  TOP,
  WEB_ID_BASE,
  webItemId,
  type Cursor,
  type Position,
} from './positions.js';

export interface Seen {
  item: feeds.TimelineItem;
  pos: Position;
  /** The feeds cursor the page holding this item was asked for with (undefined: the top). */
  hint: string | undefined;
}

export interface WalkEnd {
  /** The timeline has no items past the last one visited. */
  ended: boolean;
  /** Stopped because MICROSUB_SCAN_LIMIT items were looked at. */
  capped: boolean;
}

export interface WalkOptions {
  headers: BusHeaders;
  /** Size of the first page asked for (later pages are 100). */
  first?: number;
  /** The parameter a bad cursor is reported under. */
  param?: string;
}

const PAGE = 100;

/** What feeds is asked for a source: the timeline's kind and, for `default`, the follow channel. */
function feedsTimeline(source: ChannelSource): { kind: feeds.TimelineKind; channel?: string } {
  return source.channel === undefined
    ? { kind: source.kind }
    : { kind: source.kind, channel: source.channel };
}

async function feedsPage(
  ctx: MicrosubContext,
  userId: number,
  source: ChannelSource,
  before: string | undefined,
  limit: number,
  options: WalkOptions,
): Promise<{ items: feeds.TimelineItem[]; before?: string }> {
  try {
    return await ctx.bus.request(
      feeds.timelineGet,
      { userId, ...feedsTimeline(source), limit, ...(before === undefined ? {} : { before }) },
      { headers: options.headers },
    );
  } catch (err) {
    // A cursor feeds does not accept came from the client (the hint part of ours).
    if (isAppError(err) && err.status === 400 && before !== undefined) {
      throw invalidCursor(options.param ?? 'before');
    }
    // Feeds has not heard of the user yet (a new account): nothing to show.
    if (isAppError(err) && err.status === 404) return { items: [] };
    throw err;
  }
}

interface FeedsCursorState {
  /** The feeds cursor of the page the next unvisited feeds item comes from. */
  hint: string | undefined;
}

async function* feedsItems(
  ctx: MicrosubContext,
  userId: number,
  source: ChannelSource,
  from: Cursor | undefined,
  state: FeedsCursorState,
  options: WalkOptions,
): AsyncGenerator<Seen> {
  const at = from?.at ?? TOP;
  let hint = from?.hint;
  let limit = Math.min(options.first ?? PAGE, PAGE);
  for (;;) {
    const page = await feedsPage(ctx, userId, source, hint, limit, options);
    state.hint = hint;
    for (const item of page.items) {
      const pos = positionOf(item);
      if (isNewer(at, pos)) yield { item, pos, hint };
    }
    if (page.before === undefined) return;
    hint = page.before;
    limit = PAGE;
  }
}

/** As a feeds item: an entry of a feed the user follows on the open web (reader.webfollow.entries). */
function webItem(e: reader.WebEntry): feeds.TimelineItem {
  return {
    id: webItemId(e.entryId),
    postId: e.entryId,
    url: e.url,
    title: e.title,
    contentHtml: e.contentHtml,
    contentText: e.contentText,
    publishedAt: e.publishedAt,
    photos: [],
    // No Murmur user: 0 matches nobody (preview keeps only the previewed user's posts).
    author: { userId: 0, username: '', ...e.author },
  };
}

async function* webItems(
  ctx: MicrosubContext,
  userId: number,
  from: Cursor | undefined,
  options: WalkOptions,
): AsyncGenerator<Omit<Seen, 'hint'>> {
  const at = from?.at ?? TOP;
  // Strictly older than `at`: for a post position, every entry of the same second is newer.
  let before =
    from === undefined ? undefined : { ms: at.ms, entryId: at.id >= WEB_ID_BASE ? at.id - WEB_ID_BASE : 0 };
  let limit = Math.min(options.first ?? PAGE, PAGE);
  for (;;) {
    let page: reader.WebEntry[];
    try {
      page = (
        await ctx.bus.request(
          reader.webEntriesList,
          { userId, limit, ...(before ? { before } : {}) },
          { headers: options.headers },
        )
      ).items;
    } catch (err) {
      // The open-web part of a timeline is an addition: without the reader, posts still show.
      ctx.logger.debug({ err }, 'reader did not list open-web entries; showing posts only');
      return;
    }
    for (const e of page) {
      const item = webItem(e);
      const pos = positionOf(item);
      if (isNewer(at, pos)) yield { item, pos };
      before = { ms: pos.ms, entryId: e.entryId };
    }
    if (page.length < limit) return;
    limit = PAGE;
  }
}

/**
 * Visits the items strictly older than `from` (all items without it), newest first: the feeds
 * timeline, merged (in `default`) with the entries of feeds followed on the open web. `visit`
 * returns false to stop. Items between the cursor's hint and its position are skipped, not visited.
 */
export async function walk(
  ctx: MicrosubContext,
  userId: number,
  source: ChannelSource,
  from: Cursor | undefined,
  visit: (seen: Seen) => boolean,
  options: WalkOptions,
): Promise<WalkEnd> {
  const state: FeedsCursorState = { hint: from?.hint };
  const posts = feedsItems(ctx, userId, source, from, state, options);
  const web = source.web ? webItems(ctx, userId, from, options) : undefined;
  // Each source's next item is read only when the merge needs it, so a visitor that stops costs no
  // page past the one holding the last item it saw (the first pages of both are asked for at once).
  type Next<T> = IteratorResult<T, void> | undefined;
  const ended: IteratorResult<Omit<Seen, 'hint'>, void> = { done: true, value: undefined };
  let nextPost: Next<Seen>;
  let nextWeb: Next<Omit<Seen, 'hint'>> = web ? undefined : ended;
  let scanned = 0;
  for (;;) {
    const [post, entry]: [IteratorResult<Seen, void>, IteratorResult<Omit<Seen, 'hint'>, void>] =
      nextPost === undefined || nextWeb === undefined
        ? await Promise.all([nextPost ?? posts.next(), nextWeb ?? web!.next()])
        : [nextPost, nextWeb];
    nextPost = post;
    nextWeb = entry;
    if (post.done && entry.done) return { ended: true, capped: false };
    if (scanned === ctx.config.MICROSUB_SCAN_LIMIT) return { ended: false, capped: true };
    scanned += 1;
    let seen: Seen;
    if (!post.done && (entry.done || isNewer(post.value.pos, entry.value.pos))) {
      seen = post.value;
      nextPost = undefined;
    } else {
      // A feeds cursor at or newer than this entry: the page the next post comes from.
      seen = { ...(entry.value as Omit<Seen, 'hint'>), hint: state.hint };
      nextWeb = undefined;
    }
    if (!visit(seen)) return { ended: false, capped: false };
  }
}

/**
 * The items of a channel newer than `since` (a position of this service), newest first, at most
 * MICROSUB_SCAN_LIMIT of them — as a walk from the top would meet them, but with the feeds part read
 * as positions only (feeds.timeline.positions: no post bodies, no authors). Counting needs no more.
 */
export async function positionsNewerThan(
  ctx: MicrosubContext,
  userId: number,
  source: ChannelSource,
  since: Position,
  headers: BusHeaders,
): Promise<{ id: string; pos: Position }[]> {
  const max = ctx.config.MICROSUB_SCAN_LIMIT;
  const options: WalkOptions = { headers, first: 20 };
  const [posts, web] = await Promise.all([
    feedsPositionsNewerThan(ctx, userId, source, since, max, headers),
    source.web ? webPositionsNewerThan(ctx, userId, since, max, options) : [],
  ]);
  const merged =
    web.length === 0 ? posts : [...posts, ...web].sort((a, b) => (isNewer(a.pos, b.pos) ? -1 : 1));
  return merged.length > max ? merged.slice(0, max) : merged;
}

/** Feeds pages positions by this many at most (the bus request's own bound). */
const POSITIONS_PAGE = 5000;

async function feedsPositionsNewerThan(
  ctx: MicrosubContext,
  userId: number,
  source: ChannelSource,
  since: Position,
  max: number,
  headers: BusHeaders,
): Promise<{ id: string; pos: Position }[]> {
  // Feeds orders by the exact publication time, this service by whole seconds (positions.ts). Every
  // item newer than `since` here was published at or after `since.ms`, so feeds is asked for all of
  // those (a superset: the few of the same second that are not newer are dropped below).
  const bound = { ms: since.ms, id: 0 };
  const out: { id: string; pos: Position }[] = [];
  let before: string | undefined;
  do {
    let page: { items: { id: string; publishedAt: string }[]; before?: string };
    try {
      page = await ctx.bus.request(
        feeds.timelinePositions,
        {
          userId,
          ...feedsTimeline(source),
          since: bound,
          limit: Math.min(POSITIONS_PAGE, max - out.length),
          ...(before ? { before } : {}),
        },
        { headers },
      );
    } catch (err) {
      // Feeds has not heard of the user yet (a new account): nothing to count.
      if (isAppError(err) && err.status === 404) return out;
      throw err;
    }
    for (const item of page.items) {
      const pos = positionOf(item);
      if (isNewer(pos, since)) out.push({ id: item.id, pos });
    }
    before = page.before;
  } while (before !== undefined && out.length < max);
  // Newest first in this service's order (within one second feeds' order may differ).
  out.sort((a, b) => (isNewer(a.pos, b.pos) ? -1 : 1));
  return out.length > max ? out.slice(0, max) : out;
}

async function webPositionsNewerThan(
  ctx: MicrosubContext,
  userId: number,
  since: Position,
  max: number,
  options: WalkOptions,
): Promise<{ id: string; pos: Position }[]> {
  const out: { id: string; pos: Position }[] = [];
  for await (const { item, pos } of webItems(ctx, userId, undefined, options)) {
    if (!isNewer(pos, since) || out.length === max) break;
    out.push({ id: item.id, pos });
  }
  return out;
}

/** Where the listed `_id`s are in the channel, for those within the scan limit from the top. */
export async function findPositions(
  ctx: MicrosubContext,
  userId: number,
  source: ChannelSource,
  ids: readonly string[],
  headers: BusHeaders,
): Promise<Map<string, Position>> {
  const wanted = new Set(ids);
  const found = new Map<string, Position>();
  if (wanted.size === 0) return found;
  await walk(
    ctx,
    userId,
    source,
    undefined,
    ({ item, pos }) => {
      if (wanted.has(item.id)) found.set(item.id, pos);
      return found.size < wanted.size;
    },
    { headers },
  );
  return found;
}
