// The in-memory index of visible posts behind every timeline (docs/adr/0010-feeds-timelines.md):
// per author, per mentioned user and service-wide for photos, a list of post heads sorted newest
// first. A timeline merges the lists of the people a user follows and reads only the page's posts
// from the store. The store stays the source of truth: the index is built from it at start and
// kept current from post events (every replica listens to them).

export interface PostHead {
  id: number;
  authorId: number;
  publishedAtMs: number;
  rev: number;
  visible: boolean;
  mentionIds: readonly number[];
  hasPhotos: boolean;
}

/** Newest first: publishedAt descending, then id descending. */
function newer(a: PostHead, b: PostHead): boolean {
  return a.publishedAtMs > b.publishedAtMs || (a.publishedAtMs === b.publishedAtMs && a.id > b.id);
}

/** Position of the first head not newer than (ms, id). */
function lowerBound(list: readonly PostHead[], ms: number, id: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const h = list[mid]!;
    if (h.publishedAtMs > ms || (h.publishedAtMs === ms && h.id > id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insert(list: PostHead[], head: PostHead): void {
  list.splice(lowerBound(list, head.publishedAtMs, head.id), 0, head);
}

function remove(list: PostHead[] | undefined, head: PostHead): void {
  if (!list) return;
  const at = lowerBound(list, head.publishedAtMs, head.id);
  if (list[at]?.id === head.id) list.splice(at, 1);
}

/** A position in a timeline: items strictly older (`before`) or newer (`after`) than it. */
export interface Position {
  ms: number;
  id: number;
}

export class PostIndex {
  private readonly heads = new Map<number, PostHead>();
  private readonly byAuthor = new Map<number, PostHead[]>();
  private readonly byMention = new Map<number, PostHead[]>();
  private readonly photos: PostHead[] = [];
  /** Every visible post, newest first: dense timelines scan it instead of merging thousands of lists. */
  private readonly all: PostHead[] = [];
  /** Newest revision applied per author / mentioned user / to photo posts (validators). */
  private readonly authorRev = new Map<number, number>();
  private readonly mentionRev = new Map<number, number>();
  private photosRevValue = 0;

  /** Bumped by every change: a cached selection made at the same version is still right. */
  private versionValue = 0;

  get size(): number {
    return this.heads.size;
  }

  get version(): number {
    return this.versionValue;
  }

  /**
   * Loads many heads at once (at start): sorted once, then appended, so building the index from
   * 200,000 posts is n log n rather than one sorted insertion each.
   */
  load(heads: Iterable<PostHead>): void {
    this.versionValue += 1;
    const fresh: PostHead[] = [];
    for (const head of heads) {
      if (this.heads.size > 0 && this.heads.has(head.id)) {
        this.apply(head);
        continue;
      }
      this.heads.set(head.id, head);
      this.bump(this.authorRev, head.authorId, head.rev);
      for (const id of head.mentionIds) this.bump(this.mentionRev, id, head.rev);
      if (head.hasPhotos) this.photosRevValue = Math.max(this.photosRevValue, head.rev);
      if (head.visible) fresh.push(head);
    }
    fresh.sort((a, b) => b.publishedAtMs - a.publishedAtMs || b.id - a.id);
    const append = (map: Map<number, PostHead[]>, key: number, head: PostHead) => {
      const list = map.get(key);
      if (list) list.push(head);
      else map.set(key, [head]);
    };
    const wasEmpty = this.all.length === 0;
    for (const head of fresh) {
      if (!wasEmpty) {
        this.link(head);
        continue;
      }
      append(this.byAuthor, head.authorId, head);
      for (const id of head.mentionIds) append(this.byMention, id, head);
      if (head.hasPhotos) this.photos.push(head);
      this.all.push(head);
    }
  }

  /** Applies a head unless the index holds the same or a newer revision of that post. */
  apply(head: PostHead): boolean {
    const old = this.heads.get(head.id);
    if (old && old.rev >= head.rev) return false;
    this.versionValue += 1;
    if (old?.visible) this.unlink(old);
    this.heads.set(head.id, head);
    if (head.visible) this.link(head);
    this.bump(this.authorRev, head.authorId, head.rev);
    for (const id of new Set([...(old?.mentionIds ?? []), ...head.mentionIds])) {
      this.bump(this.mentionRev, id, head.rev);
    }
    if (head.hasPhotos || old?.hasPhotos) this.photosRevValue = Math.max(this.photosRevValue, head.rev);
    return true;
  }

  private bump(map: Map<number, number>, key: number, rev: number): void {
    if ((map.get(key) ?? 0) < rev) map.set(key, rev);
  }

  private link(head: PostHead): void {
    const own = this.byAuthor.get(head.authorId);
    if (own) insert(own, head);
    else this.byAuthor.set(head.authorId, [head]);
    for (const id of head.mentionIds) {
      const list = this.byMention.get(id);
      if (list) insert(list, head);
      else this.byMention.set(id, [head]);
    }
    if (head.hasPhotos) insert(this.photos, head);
    insert(this.all, head);
  }

  private unlink(head: PostHead): void {
    remove(this.byAuthor.get(head.authorId), head);
    for (const id of head.mentionIds) remove(this.byMention.get(id), head);
    if (head.hasPhotos) remove(this.photos, head);
    remove(this.all, head);
  }

  authorsRev(authorIds: Iterable<number>): number {
    let rev = 0;
    for (const id of authorIds) rev = Math.max(rev, this.authorRev.get(id) ?? 0);
    return rev;
  }

  mentionsRev(userId: number): number {
    return this.mentionRev.get(userId) ?? 0;
  }

  get photosRev(): number {
    return this.photosRevValue;
  }

  /** The newest `limit` visible posts of these authors, older than `before` / newer than `after`. */
  timeline(authorIds: Iterable<number>, limit: number, range: Range = {}): PostHead[] {
    const lists: PostHead[][] = [];
    const authors = new Set<number>();
    let posts = 0;
    for (const id of authorIds) {
      const list = this.byAuthor.get(id);
      if (list && list.length > 0) {
        lists.push(list);
        authors.add(id);
        posts += list.length;
      }
    }
    if (posts === 0) return [];
    // Merging k lists costs about k steps to set up; scanning all posts newest first and keeping the
    // authors' costs about limit × (all posts ÷ the authors' posts). Take the cheaper (ADR 0010).
    const scanCost = (limit * this.all.length) / posts;
    if (lists.length > 32 && scanCost < lists.length * 4) return scan(this.all, authors, limit, range);
    return merge(lists, limit, range);
  }

  mentions(userId: number, limit: number, range: Range = {}): PostHead[] {
    const list = this.byMention.get(userId);
    return list ? merge([list], limit, range) : [];
  }

  /** Every visible post of the service (Microsub's Discover), newest first. */
  everyone(limit: number, range: Range = {}): PostHead[] {
    return merge([this.all], limit, range);
  }

  newestPhotos(limit: number): PostHead[] {
    return this.photos.slice(0, limit);
  }
}

export interface Range {
  before?: Position;
  after?: Position;
}

/** The newest `limit` heads of `authors` in the service-wide list, within `range`. */
function scan(all: PostHead[], authors: Set<number>, limit: number, range: Range): PostHead[] {
  const start = range.before ? lowerBound(all, range.before.ms, range.before.id - 0.5) : 0;
  const end = range.after ? lowerBound(all, range.after.ms, range.after.id) : all.length;
  const out: PostHead[] = [];
  if (range.after) {
    for (let i = end - 1; i >= start && out.length < limit; i--)
      if (authors.has(all[i]!.authorId)) out.push(all[i]!);
    return out.reverse();
  }
  for (let i = start; i < end && out.length < limit; i++)
    if (authors.has(all[i]!.authorId)) out.push(all[i]!);
  return out;
}

/**
 * k-way merge of newest-first lists with a binary heap on the lists' current heads. With `after`,
 * the `limit` items just newer than it are returned (still newest first), so paging back up works.
 */
function merge(lists: PostHead[][], limit: number, range: Range): PostHead[] {
  const cursors: { list: PostHead[]; at: number; end: number }[] = [];
  for (const list of lists) {
    const at = range.before ? lowerBound(list, range.before.ms, range.before.id - 0.5) : 0;
    // lowerBound with id - 0.5 skips the head equal to `before` itself.
    const end = range.after ? lowerBound(list, range.after.ms, range.after.id) : list.length;
    if (at < end) cursors.push({ list, at, end });
  }
  if (range.after) {
    // Oldest first from the end of each slice, then reversed.
    const out: PostHead[] = [];
    const heap = cursors.map((c) => ({ ...c, at: c.end - 1, stop: c.at }));
    const older = (a: PostHead, b: PostHead) => newer(b, a);
    const h = new Heap(heap, (x, y) => older(x.list[x.at]!, y.list[y.at]!));
    while (out.length < limit && h.size > 0) {
      const top = h.peek();
      out.push(top.list[top.at]!);
      top.at -= 1;
      if (top.at < top.stop) h.pop();
      else h.fix();
    }
    return out.reverse();
  }
  const out: PostHead[] = [];
  const h = new Heap(cursors, (x, y) => newer(x.list[x.at]!, y.list[y.at]!));
  while (out.length < limit && h.size > 0) {
    const top = h.peek();
    out.push(top.list[top.at]!);
    top.at += 1;
    if (top.at >= top.end) h.pop();
    else h.fix();
  }
  return out;
}

/** A binary heap whose top may be changed in place and re-sifted (`fix`). */
class Heap<T> {
  constructor(
    private readonly items: T[],
    private readonly first: (a: T, b: T) => boolean,
  ) {
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T {
    return this.items[0]!;
  }

  fix(): void {
    this.down(0);
  }

  pop(): void {
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.down(0);
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.first(this.items[l]!, this.items[best]!)) best = l;
      if (r < n && this.first(this.items[r]!, this.items[best]!)) best = r;
      if (best === i) return;
      [this.items[i], this.items[best]] = [this.items[best]!, this.items[i]!];
      i = best;
    }
  }
}
