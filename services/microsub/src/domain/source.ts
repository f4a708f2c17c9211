// Timelines come from the feeds service over the bus (feeds.timeline.get); microsub keeps only its own
// read state and removals. `walk` reads a channel newest first, a page at a time, from the top or from
// a cursor, and hands each item to a visitor until it says stop, the timeline ends or the scan limit
// (MICROSUB_SCAN_LIMIT) is reached: the one way this service reads a timeline.
import { feeds } from '@murmur/contracts';
import { isAppError, type BusHeaders } from '@murmur/platform';
import type { MicrosubContext } from './context.js';
import { invalidCursor, isNewer, positionOf, TOP, type Cursor, type Position } from './positions.js';

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

/**
 * Visits the items strictly older than `from` (all items without it), newest first. `visit` returns
 * false to stop. Items between the cursor's hint and its position are skipped, not visited.
 */
export async function walk(
  ctx: MicrosubContext,
  userId: number,
  kind: feeds.TimelineKind,
  from: Cursor | undefined,
  visit: (seen: Seen) => boolean,
  options: WalkOptions,
): Promise<WalkEnd> {
  const at = from?.at ?? TOP;
  let hint = from?.hint;
  let limit = Math.min(options.first ?? PAGE, PAGE);
  let scanned = 0;
  for (;;) {
    const page = await feedsPage(ctx, userId, kind, hint, limit, options);
    for (const [i, item] of page.items.entries()) {
      const pos = positionOf(item);
      if (!isNewer(at, pos)) continue;
      if (scanned === ctx.config.MICROSUB_SCAN_LIMIT) {
        return { ended: false, capped: true };
      }
      scanned += 1;
      if (!visit({ item, pos, hint })) return { ended: false, capped: false };
      if (i === page.items.length - 1 && page.before === undefined) return { ended: true, capped: false };
    }
    if (page.before === undefined) return { ended: true, capped: false };
    hint = page.before;
    limit = PAGE;
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
