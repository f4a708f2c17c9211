// What one user sees, kept in memory: subscriptions with their feeds, the timeline of visible entries
// (subscribed feeds plus starred entries elsewhere) newest first, and the unread and starred sets.
//
// A view is valid while the user's state `version` in the store is the one it was built at; every
// request checks that with one small read, so replicas never serve stale data. Writers store their
// change, then increment the version; a writer in this process applies its own change to the cached
// view when it was the only change since (`afterWrite`), so reading after marking is not a rebuild.
import type { FeedDoc, ListName, ReaderStore, StarredRef, UserStateDoc } from '../store/index.js';
import {
  listTimesOf,
  unreadOf,
  type SetsDelta,
  type StateWrite,
  type UserStates,
  type Written,
} from './states.js';

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

/** Changes held for a view that is behind them; more means the view is not catching up: rebuild it. */
const MAX_PENDING_WRITES = 256;

export class UserViews {
  private readonly cache = new Map<number, UserView>();
  private readonly building = new Map<number, Promise<UserView>>();
  /**
   * Changes written by this process that reached a version the cached view is not at yet (writes of
   * one commit resolve in any order): applied once the versions before them are.
   */
  private readonly pending = new Map<number, Map<number, (view: UserView) => void>>();
  /** Writes of this process under way per user (`writing`). */
  private readonly inflight = new Map<number, Set<Promise<unknown>>>();

  constructor(
    private readonly store: ReaderStore,
    private readonly states: UserStates,
    private readonly maxUsers: number,
  ) {}

  /** The user's current view: the cached one if still valid, else a fresh build. */
  async get(userId: number): Promise<UserView> {
    const { version } = await this.states.version(userId);
    let cached = this.cache.get(userId);
    // Writes of this process may be committed (their versions visible) yet not settled (waiting for
    // their fsync): they are applied when they settle, sooner and cheaper than a rebuild. Only those
    // under way now are waited for, so a stream of new ones cannot hold the request.
    const underWayWrites = this.inflight.get(userId);
    if (cached && cached.version < version && underWayWrites) {
      await Promise.allSettled([...underWayWrites]);
      cached = this.cache.get(userId);
    }
    if (cached && cached.version >= version) {
      this.cache.delete(userId);
      this.cache.set(userId, cached);
      return cached;
    }
    // A build under way may have read the state before a change this request must see.
    const underWay = this.building.get(userId);
    if (underWay) {
      const view = await underWay;
      if (view.version >= version) return view;
    }
    const build = this.build(userId).finally(() => {
      if (this.building.get(userId) === build) this.building.delete(userId);
    });
    this.building.set(userId, build);
    return build;
  }

  /**
   * Runs a write of the user's state whose change this process applies with afterWrite: requests for
   * the user meanwhile wait for it rather than rebuild the view.
   */
  async writing<T>(userId: number, write: () => Promise<T>): Promise<T> {
    const promise = write();
    let writes = this.inflight.get(userId);
    if (!writes) {
      writes = new Set();
      this.inflight.set(userId, writes);
    }
    writes.add(promise);
    try {
      return await promise;
    } finally {
      writes.delete(promise);
      if (writes.size === 0 && this.inflight.get(userId) === writes) this.inflight.delete(userId);
    }
  }

  /**
   * After this process wrote a change and the state reached `state.version`: apply the change to the
   * cached view once it is at the version just before (at once, or when the writes before it are
   * applied); a view built at or after `state.version` has it already. A change another process wrote
   * in between leaves a gap: the next request sees a newer version than the view's and rebuilds.
   */
  afterWrite(
    state: Pick<UserStateDoc, '_id' | 'version' | 'updatedAt'> & { lists: readonly ListName[] },
    apply: (view: UserView) => void,
  ): void {
    const userId = state._id;
    const view = this.cache.get(userId);
    if (!view || view.version >= state.version) return;
    const step = (target: UserView): void => {
      apply(target);
      target.version = state.version;
      target.updatedAt = state.updatedAt;
      for (const list of state.lists) target.listChangedAt[list] = state.updatedAt;
    };
    let waiting = this.pending.get(userId);
    if (!waiting) {
      waiting = new Map();
      this.pending.set(userId, waiting);
    }
    waiting.set(state.version, step);
    if (waiting.size > MAX_PENDING_WRITES) {
      this.forget(userId);
      return;
    }
    this.applyPending(userId);
  }

  /** Applies the user's pending changes that follow the cached view's version, in order. */
  private applyPending(userId: number): void {
    const waiting = this.pending.get(userId);
    if (!waiting) return;
    let view = this.cache.get(userId);
    for (;;) {
      if (!view) break;
      const next = waiting.get(view.version + 1);
      if (!next) break;
      waiting.delete(view.version + 1);
      next(view);
      // An apply may have dropped the view (a change it cannot make in place).
      view = this.cache.get(userId);
    }
    if (view) for (const version of waiting.keys()) if (version <= view.version) waiting.delete(version);
    if (!view || waiting.size === 0) this.pending.delete(userId);
  }

  /** Drops the user's cached view and the changes waiting for it. */
  private forget(userId: number): void {
    this.cache.delete(userId);
    this.pending.delete(userId);
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
          this.forget(written.userId);
          return;
        }
        applyInPlace(view, delta);
      },
    );
  }

  /**
   * New entries of `arrival.feedId` made unread for the user by this process (the write that reached
   * `written.version`): merged into a cached view in place, so a user reading while their feeds are
   * polled does not rebuild the whole view after every poll (issue 38). `arrival.feed` is the feed's
   * record as just stored (its title may have changed); without it, a change shown in subscriptions
   * drops the view instead.
   */
  afterArrival(
    userId: number,
    written: StateWrite,
    arrival: { feedId: number; ids: readonly number[]; times: readonly number[]; feed: FeedDoc | null },
  ): void {
    this.afterWrite({ _id: userId, ...written }, (view) => {
      const sub = view.subscriptionByFeed.get(arrival.feedId);
      if (!sub || (arrival.feed === null && written.lists.includes('subscriptions'))) {
        this.forget(userId);
        return;
      }
      if (arrival.feed !== null) sub.feed = arrival.feed;
      if (arrival.ids.length === 0) return;
      for (const id of arrival.ids) view.unread.add(id);
      view.unreadList = null;
      // A view rebuilt while this write committed may have read its entries already (the build reads
      // the state's version first, the timelines after): those are not added twice.
      const ids: number[] = [];
      const times: number[] = [];
      arrival.ids.forEach((id, i) => {
        if (timelinePosition(view, id) !== -1) return;
        ids.push(id);
        times.push(arrival.times[i]!);
      });
      if (ids.length > 0) insertIntoTimeline(view, ascending(ids, times, arrival.feedId));
    });
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
    while (this.cache.size > this.maxUsers) this.forget(this.cache.keys().next().value!);
    // Changes of this process that settled while the build read: those after its version apply now.
    this.applyPending(userId);
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

/** Whether (ta, ia) comes before (tb, ib) in a newest-first timeline. */
function newer(ta: number, ia: number, tb: number, ib: number): boolean {
  return ta > tb || (ta === tb && ia > ib);
}

/**
 * Merges one feed's new entries (ascending) into the view's newest-first timeline: a copy of the
 * arrays, O(timeline) — new entries are usually the newest, and then the old arrays are copied whole.
 */
function insertIntoTimeline(view: UserView, added: SortedList): void {
  const k = added.ids.length;
  const n = view.ids.length;
  const ids = new Float64Array(n + k);
  const times = new Float64Array(n + k);
  const feeds = new Float64Array(n + k);
  let descending = view.idsDescending;
  // The oldest new entry newer than the newest shown: the new block, then the old arrays whole.
  if (n === 0 || newer(added.times[0]!, added.ids[0]!, view.times[0]!, view.ids[0]!)) {
    for (let j = 0; j < k; j++) {
      ids[j] = added.ids[k - 1 - j]!;
      times[j] = added.times[k - 1 - j]!;
      feeds[j] = added.feedId;
      if (j > 0 && ids[j]! >= ids[j - 1]!) descending = false;
    }
    ids.set(view.ids, k);
    times.set(view.times, k);
    feeds.set(view.feeds, k);
    if (n > 0 && ids[k]! >= ids[k - 1]!) descending = false;
  } else {
    let i = 0;
    let j = k - 1;
    for (let o = 0; o < n + k; o++) {
      const takeNew =
        j >= 0 && (i >= n || newer(added.times[j]!, added.ids[j]!, view.times[i]!, view.ids[i]!));
      if (takeNew) {
        ids[o] = added.ids[j]!;
        times[o] = added.times[j]!;
        feeds[o] = added.feedId;
        j--;
      } else {
        ids[o] = view.ids[i]!;
        times[o] = view.times[i]!;
        feeds[o] = view.feeds[i]!;
        i++;
      }
      if (o > 0 && ids[o]! >= ids[o - 1]!) descending = false;
    }
  }
  view.ids = ids;
  view.times = times;
  view.feeds = feeds;
  view.idsDescending = descending;
  view.positions = null;
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
