// What one user sees, kept in memory: subscriptions with their feeds, the timeline of visible entries
// (subscribed feeds plus starred entries elsewhere) newest first, and the unread and starred sets.
//
// A view is valid while the user's state `version` in the store is the one it was built at; every
// request checks that with one small read, so replicas never serve stale data. Writers store their
// change, then increment the version; a writer in this process applies its own change to the cached
// view when it was the only change since (`afterWrite`), so reading after marking is not a rebuild.
import type { FeedDoc, ListName, ReaderStore, StarredRef, UserStateDoc } from '../store/index.js';
import { listTimesOf, unreadOf, type SetsDelta, type UserStates, type Written } from './states.js';

export interface SubscriptionView {
  id: number;
  feedId: number;
  /** The user's own title, or null. */
  title: string | null;
  createdAt: number;
  feed: FeedDoc;
}

export interface UserView {
  userId: number;
  version: number;
  /** The last change of anything this view shows (the entry lists' `Last-Modified`). */
  updatedAt: Date;
  /** The last change of each list (its own `Last-Modified`). */
  listChangedAt: Record<ListName, Date>;
  /** Newest first (created_at, then id, descending). */
  subscriptions: SubscriptionView[];
  subscriptionByFeed: Map<number, SubscriptionView>;
  /** Visible entries, newest first: ids, created_at (µs) and feed ids in parallel arrays. */
  ids: Float64Array;
  times: Float64Array;
  feeds: Float64Array;
  unread: Set<number>;
  starred: Map<number, StarredRef>;
  /** Unread ids, descending; computed on first use. */
  unreadList: number[] | null;
  /** Timeline position by id, built on first use when ids are not descending along the timeline. */
  positions: Map<number, number> | null;
  /** Ids descend along the timeline (one clock, one counter): positions are found by binary search. */
  idsDescending: boolean;
}

interface SortedList {
  ids: number[];
  times: number[];
  feedId: number;
}

/** Merges ascending lists into one descending timeline (a heap over the lists' tails). */
export function mergeTimelines(lists: SortedList[]): {
  ids: Float64Array;
  times: Float64Array;
  feeds: Float64Array;
} {
  let total = 0;
  for (const list of lists) total += list.ids.length;
  const ids = new Float64Array(total);
  const times = new Float64Array(total);
  const feeds = new Float64Array(total);
  const pos = lists.map((l) => l.ids.length - 1);
  // A max-heap of list indexes, ordered by the (time, id) at each list's current position.
  const heap: number[] = [];
  const greater = (a: number, b: number): boolean => {
    const la = lists[a]!;
    const lb = lists[b]!;
    const ta = la.times[pos[a]!]!;
    const tb = lb.times[pos[b]!]!;
    return ta > tb || (ta === tb && la.ids[pos[a]!]! > lb.ids[pos[b]!]!);
  };
  const siftDown = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && greater(heap[l]!, heap[top]!)) top = l;
      if (r < heap.length && greater(heap[r]!, heap[top]!)) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  };
  lists.forEach((list, i) => {
    if (list.ids.length > 0) heap.push(i);
  });
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);
  for (let n = 0; n < total; n++) {
    const li = heap[0]!;
    const list = lists[li]!;
    const p = pos[li]!;
    ids[n] = list.ids[p]!;
    times[n] = list.times[p]!;
    feeds[n] = list.feedId;
    pos[li] = p - 1;
    if (p === 0) {
      // This list is used up: its slot takes the heap's last entry.
      const last = heap.pop()!;
      if (heap.length > 0 && last !== li) heap[0] = last;
    }
    siftDown(0);
  }
  return { ids, times, feeds };
}

/** Sorts a list ascending by (time, id) when it is not already (clocks of replicas may disagree). */
function ascending(ids: number[], times: number[], feedId: number): SortedList {
  let sorted = true;
  for (let i = 1; i < ids.length && sorted; i++) {
    if (times[i]! < times[i - 1]! || (times[i] === times[i - 1] && ids[i]! < ids[i - 1]!)) sorted = false;
  }
  if (sorted) return { ids, times, feedId };
  const order = ids.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || ids[a]! - ids[b]!);
  return { ids: order.map((i) => ids[i]!), times: order.map((i) => times[i]!), feedId };
}

export class UserViews {
  private readonly cache = new Map<number, UserView>();
  private readonly building = new Map<number, Promise<UserView>>();

  constructor(
    private readonly store: ReaderStore,
    private readonly states: UserStates,
    private readonly maxUsers: number,
  ) {}

  /** The user's current view: the cached one if still valid, else a fresh build. */
  async get(userId: number): Promise<UserView> {
    const { version } = await this.states.version(userId);
    const cached = this.cache.get(userId);
    if (cached && cached.version >= version) {
      this.cache.delete(userId);
      this.cache.set(userId, cached);
      return cached;
    }
    // A build under way may have read the state before a change this request must see.
    const pending = this.building.get(userId);
    if (pending) {
      const view = await pending;
      if (view.version >= version) return view;
    }
    const build = this.build(userId).finally(() => {
      if (this.building.get(userId) === build) this.building.delete(userId);
    });
    this.building.set(userId, build);
    return build;
  }

  /**
   * After this process wrote a change and the state reached `state.version`: apply the change to the
   * cached view if it was built at the version just before, else drop it (someone else wrote too).
   */
  afterWrite(
    state: Pick<UserStateDoc, '_id' | 'version' | 'updatedAt'> & { lists: readonly ListName[] },
    apply: (view: UserView) => void,
  ): void {
    const view = this.cache.get(state._id);
    if (!view) return;
    if (view.version !== state.version - 1) {
      this.cache.delete(state._id);
      return;
    }
    apply(view);
    view.version = state.version;
    view.updatedAt = state.updatedAt;
    for (const list of state.lists) view.listChangedAt[list] = state.updatedAt;
  }

  /** A change of the sets written by this process: applied in place (see afterWrite). */
  afterSetsWrite(written: Written | null): void {
    if (written === null) return;
    const { delta } = written;
    this.afterWrite(
      { _id: written.userId, version: written.version, updatedAt: written.updatedAt, lists: written.lists },
      (view) => {
        // Starring or unstarring an entry of an unsubscribed feed changes the timeline itself.
        const outside =
          (delta.star ?? []).some((ref) => !view.subscriptionByFeed.has(ref.feedId)) ||
          (delta.unstar ?? []).some((id) => !view.subscriptionByFeed.has(view.starred.get(id)?.feedId ?? -1));
        if (outside) {
          this.cache.delete(written.userId);
          return;
        }
        applyInPlace(view, delta);
      },
    );
  }

  private async build(userId: number): Promise<UserView> {
    // The state first: anything written after this read comes with a later version.
    const state = await this.states.read(userId);
    const subs = await this.store.subscriptionsOfUser(userId);
    const feedIds = subs.map((s) => s.feedId);
    const [feeds, timelines] = await Promise.all([
      this.store.feedsByIds(feedIds),
      this.store.timelinesOfFeeds(feedIds),
    ]);
    const feedById = new Map(feeds.map((f) => [f._id, f]));
    const subscriptions: SubscriptionView[] = [];
    for (const s of subs) {
      const feed = feedById.get(s.feedId);
      if (feed)
        subscriptions.push({ id: s._id, feedId: s.feedId, title: s.title, createdAt: s.createdAt, feed });
    }
    subscriptions.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const subscriptionByFeed = new Map(subscriptions.map((s) => [s.feedId, s]));

    const lists: SortedList[] = timelines
      .filter((t) => subscriptionByFeed.has(t._id))
      .map((t) => ascending(t.ids, t.times, t._id));
    // Starred entries of feeds no longer subscribed stay visible; one list per such feed.
    const outside = new Map<number, { ids: number[]; times: number[] }>();
    for (const ref of state.starred) {
      if (subscriptionByFeed.has(ref.feedId)) continue;
      const list = outside.get(ref.feedId) ?? { ids: [], times: [] };
      list.ids.push(ref.entryId);
      list.times.push(ref.createdAt);
      outside.set(ref.feedId, list);
    }
    for (const [feedId, list] of outside) lists.push(ascending(list.ids, list.times, feedId));

    const timeline = mergeTimelines(lists);
    let idsDescending = true;
    for (let i = 1; i < timeline.ids.length && idsDescending; i++) {
      if (timeline.ids[i]! >= timeline.ids[i - 1]!) idsDescending = false;
    }
    const view: UserView = {
      userId,
      version: state.version,
      updatedAt: state.updatedAt,
      listChangedAt: listTimesOf(state),
      subscriptions,
      subscriptionByFeed,
      ...timeline,
      unread: unreadOf(state),
      starred: new Map(state.starred.map((ref) => [ref.entryId, ref])),
      unreadList: null,
      positions: null,
      idsDescending,
    };
    this.cache.set(userId, view);
    while (this.cache.size > this.maxUsers) this.cache.delete(this.cache.keys().next().value!);
    return view;
  }
}

function applyInPlace(view: UserView, delta: SetsDelta): void {
  for (const id of delta.markRead ?? []) view.unread.delete(id);
  for (const id of delta.markUnread ?? []) view.unread.add(id);
  for (const id of delta.unstar ?? []) view.starred.delete(id);
  for (const ref of delta.star ?? []) view.starred.set(ref.entryId, ref);
  if (delta.markRead?.length || delta.markUnread?.length) view.unreadList = null;
}

/** Where entry `id` is in the user's timeline, or -1 when the user cannot see it. */
export function timelinePosition(view: UserView, id: number): number {
  if (view.idsDescending) {
    let lo = 0;
    let hi = view.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = view.ids[mid]!;
      if (at === id) return mid;
      if (at > id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
  if (!view.positions) {
    view.positions = new Map();
    for (let i = 0; i < view.ids.length; i++) view.positions.set(view.ids[i]!, i);
  }
  return view.positions.get(id) ?? -1;
}

/** Unread ids newest first (computed once per view version). */
export function unreadIds(view: UserView): number[] {
  view.unreadList ??= [...view.unread].sort((a, b) => b - a);
  return view.unreadList;
}
