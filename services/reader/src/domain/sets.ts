// The unread and starred sets (docs/api/reader.md "Unread and starred sets"): the answer lists the request's
// ids that are visible to the user, de-duplicated, in request order; each is now in the requested
// state, so retries are idempotent. Invisible and unknown ids are left out without a trace.
import type { StarredRef } from '../store/index.js';
import type { SetsDelta } from './states.js';
import type { ReaderContext } from './context.js';
import { timelinePosition, type UserView } from './views.js';

export type SetChange = 'unread' | 'read' | 'star' | 'unstar';

/** Starred ids, newest first. */
export function starredIds(view: UserView): number[] {
  return [...view.starred.keys()].sort((a, b) => b - a);
}

export async function changeEntrySets(
  ctx: ReaderContext,
  userId: number,
  requested: number[],
  change: SetChange,
): Promise<number[]> {
  const view = await ctx.views.get(userId);
  // The view's timeline holds exactly the visible entries, with their feed and created_at.
  const refs = new Map<number, StarredRef>();
  for (const id of requested) {
    const at = timelinePosition(view, id);
    if (at >= 0) refs.set(id, { entryId: id, feedId: view.feeds[at]!, createdAt: view.times[at]! });
  }
  const visible = [...refs.keys()];
  if (visible.length === 0) return [];

  const written = await ctx.states.change(userId, view, (current) => {
    const delta: SetsDelta = {};
    if (change === 'unread') delta.markUnread = visible.filter((id) => !current.unread.has(id));
    else if (change === 'read') delta.markRead = visible.filter((id) => current.unread.has(id));
    else if (change === 'star')
      delta.star = [...refs.values()].filter((ref) => !current.starred.has(ref.entryId));
    else {
      delta.unstar = visible.filter((id) => current.starred.has(id));
      // An unstarred entry of an unsubscribed feed is no longer visible: it cannot stay unread.
      delta.markRead = delta.unstar.filter(
        (id) => current.unread.has(id) && !view.subscriptionByFeed.has(refs.get(id)!.feedId),
      );
    }
    return delta;
  });
  // Retention keeps an entry while anyone has it starred.
  const starred = written?.delta.star?.map((ref) => ref.entryId) ?? [];
  const unstarred = written?.delta.unstar ?? [];
  if (starred.length > 0) await ctx.store.changeStars(starred, 1);
  if (unstarred.length > 0) await ctx.store.changeStars(unstarred, -1);
  ctx.views.afterSetsWrite(written);
  return visible;
}
