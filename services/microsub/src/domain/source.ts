// Timelines come from the feeds service over the bus (feeds.timeline.get); microsub keeps only its own
// read state and removals. `walk` reads a channel newest first, a page at a time, from the top or from
// a cursor, and hands each item to a visitor until it says stop, the timeline ends or the scan limit
// (MICROSUB_SCAN_LIMIT) is reached: the one way this service reads a timeline.
import { feeds, reader } from '@murmur/contracts';
import { isAppError, type BusHeaders } from '@murmur/platform';
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

async function feedsPage(
  ctx: MicrosubContext,
  userId: number,
  kind: feeds.TimelineKind,
  before: string | undefined,
  limit: number,
  options: WalkOptions,
): Promise<{ items: feeds.TimelineItem[]; before?: string }> {
  try {
    return await ctx.bus.request(
      feeds.timelineGet,
      { userId, kind, limit, ...(before === undefined ? {} : { before }) },
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
  kind: feeds.TimelineKind,
  from: Cursor | undefined,
  state: FeedsCursorState,
  options: WalkOptions,
): AsyncGenerator<Seen> {
  const at = from?.at ?? TOP;
  let hint = from?.hint;
  let limit = Math.min(options.first ?? PAGE, PAGE);
  for (;;) {
    const page = await feedsPage(ctx, userId, kind, hint, limit, options);
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
 * timeline, merged in `default` with the entries of feeds followed on the open web. `visit`
 * returns false to stop. Items between the cursor's hint and its position are skipped, not visited.
 */
export async function walk(
  ctx: MicrosubContext,
  userId: number,
  kind: feeds.TimelineKind,
  from: Cursor | undefined,
  visit: (seen: Seen) => boolean,
  options: WalkOptions,
): Promise<WalkEnd> {
  const state: FeedsCursorState = { hint: from?.hint };
  const posts = feedsItems(ctx, userId, kind, from, state, options);
  const web = kind === 'default' ? webItems(ctx, userId, from, options) : undefined;
  let nextPost = await posts.next();
  let nextWeb = web ? await web.next() : undefined;
  let scanned = 0;
  for (;;) {
    const webDone = nextWeb === undefined || nextWeb.done === true;
    if (nextPost.done && webDone) return { ended: true, capped: false };
    if (scanned === ctx.config.MICROSUB_SCAN_LIMIT) return { ended: false, capped: true };
    scanned += 1;
    let seen: Seen;
    if (!nextPost.done && (webDone || isNewer(nextPost.value.pos, nextWeb!.value!.pos))) {
      seen = nextPost.value;
      nextPost = await posts.next();
    } else {
      // A feeds cursor at or newer than this entry: the page the next post comes from.
      seen = { ...nextWeb!.value!, hint: state.hint };
      nextWeb = await web!.next();
    }
    if (!visit(seen)) return { ended: false, capped: false };
  }
}

/** Where the listed `_id`s are in the channel, for those within the scan limit from the top. */
export async function findPositions(
  ctx: MicrosubContext,
  userId: number,
  kind: feeds.TimelineKind,
  ids: readonly string[],
  headers: BusHeaders,
): Promise<Map<string, Position>> {
  const wanted = new Set(ids);
  const found = new Map<string, Position>();
  if (wanted.size === 0) return found;
  await walk(
    ctx,
    userId,
    kind,
    undefined,
    ({ item, pos }) => {
      if (wanted.has(item.id)) found.set(item.id, pos);
      return found.size < wanted.size;
    },
    { headers },
  );
  return found;
}
