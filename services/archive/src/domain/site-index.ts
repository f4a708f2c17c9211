// The in-memory read model of one site's archive at one version, built from the precomputed terms
// and dates stored with each post: posts newest first (by date, then item id), an inverted index
// from term to posts, and the posts of each month. Reads find post ids here and fetch only the page
// they show, so a deep `recent.json` page or a search of a 50,000-post archive never scans the store.
// An archive changes only when an import completes (its version changes), so a model stays valid
// until then; each request compares the stored version, so every replica notices at once.
import type { ArchiveDoc, ArchiveStore, PostKey } from '../store/index.js';

export class SiteIndex {
  /** Post `_id`s, newest first: the ordinal of a post is its position here. */
  readonly ids: string[];
  readonly publishedMs: Float64Array;
  /** Term → ordinals of the posts having it, ascending (newest first). */
  private readonly postings = new Map<string, Int32Array>();
  /** `year * 100 + month` → ordinals, ascending (newest first). */
  private readonly months = new Map<number, Int32Array>();
  readonly years: number[];

  constructor(
    readonly version: number,
    keys: PostKey[],
  ) {
    keys.sort((a, b) =>
      b.publishedMs !== a.publishedMs
        ? b.publishedMs - a.publishedMs
        : a.itemId < b.itemId
          ? 1
          : a.itemId > b.itemId
            ? -1
            : 0,
    );
    this.ids = keys.map((k) => k._id);
    this.publishedMs = Float64Array.from(keys, (k) => k.publishedMs);
    const postings = new Map<string, number[]>();
    const months = new Map<number, number[]>();
    keys.forEach((key, ordinal) => {
      for (const term of key.terms.split(' ')) {
        if (term === '') continue;
        let list = postings.get(term);
        if (!list) postings.set(term, (list = []));
        list.push(ordinal);
      }
      const d = new Date(key.publishedMs);
      const month = d.getUTCFullYear() * 100 + d.getUTCMonth() + 1;
      let list = months.get(month);
      if (!list) months.set(month, (list = []));
      list.push(ordinal);
    });
    for (const [term, list] of postings) this.postings.set(term, Int32Array.from(list));
    for (const [month, list] of months) this.months.set(month, Int32Array.from(list));
    this.years = [...new Set([...months.keys()].map((m) => Math.floor(m / 100)))].sort((a, b) => a - b);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Ids of posts `offset`… newest first. */
  recent(offset: number, limit: number): string[] {
    return this.ids.slice(offset, offset + limit);
  }

  /** Ids of the posts of a month, oldest first, from `offset`; and the number of them. */
  month(year: number, month: number, offset: number, limit: number): { ids: string[]; total: number } {
    const list = this.months.get(year * 100 + month);
    if (!list) return { ids: [], total: 0 };
    const ids: string[] = [];
    for (let i = list.length - 1 - offset; i >= 0 && ids.length < limit; i--) ids.push(this.ids[list[i]!]!);
    return { ids, total: list.length };
  }

  /**
   * Ids of the posts having every term, newest first, at most `limit`. Walks the shortest posting
   * list and advances a cursor in each other list (all ascending), so the cost is bounded by the
   * rarest term's list, not by the archive.
   */
  search(terms: string[], limit: number): string[] {
    const lists: Int32Array[] = [];
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) return [];
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    const [first, ...others] = lists;
    if (!first) return [];
    const cursors = others.map(() => 0);
    const out: string[] = [];
    outer: for (let i = 0; i < first.length && out.length < limit; i++) {
      const ordinal = first[i]!;
      for (let j = 0; j < others.length; j++) {
        const list = others[j]!;
        const at = seek(list, cursors[j]!, ordinal);
        cursors[j] = at;
        if (at >= list.length) break outer;
        if (list[at] !== ordinal) continue outer;
      }
      out.push(this.ids[ordinal]!);
    }
    return out;
  }
}

/** First position ≥ `from` in the ascending `list` holding a value ≥ `target` (galloping search). */
function seek(list: Int32Array, from: number, target: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, list.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Per-process cache of site models, bounded by the number of posts they hold together (a model costs
 * about half a kilobyte per post); least recently used dropped first. The model in use is never
 * dropped, so one archive larger than the bound is still served (and replaced by the next one used).
 */
export class SiteIndexCache {
  private readonly entries = new Map<number, { version: number; index: Promise<SiteIndex>; posts: number }>();

  constructor(private readonly maxPosts: number) {}

  /** Posts held by the models built so far (tests, metrics). */
  get posts(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.posts;
    return total;
  }

  /** Whether this process has (or is building) the model of `archive` at its current version. */
  has(archive: ArchiveDoc): boolean {
    return this.entries.get(archive._id)?.version === archive.version;
  }

  /** The model of `archive` at its current version (built once per version and process). */
  indexOf(ctx: { store: ArchiveStore }, archive: ArchiveDoc): Promise<SiteIndex> {
    const siteId = archive._id;
    const entry = this.entries.get(siteId);
    if (entry && entry.version === archive.version) {
      this.entries.delete(siteId);
      this.entries.set(siteId, entry);
      return entry.index;
    }
    const fresh = { version: archive.version, posts: 0, index: undefined as unknown as Promise<SiteIndex> };
    fresh.index = ctx.store.visiblePostKeys(siteId, archive.version).then((keys) => {
      const built = new SiteIndex(archive.version, keys);
      fresh.posts = built.size;
      this.evict(siteId);
      return built;
    });
    // A failed load is not kept: the next request tries again.
    fresh.index.catch(() => {
      if (this.entries.get(siteId) === fresh) this.entries.delete(siteId);
    });
    this.entries.delete(siteId);
    this.entries.set(siteId, fresh);
    return fresh.index;
  }

  /** Drops the least recently used models (never `keep`) until the rest fit the bound. */
  private evict(keep: number): void {
    let total = this.posts;
    for (const [siteId, entry] of this.entries) {
      if (total <= this.maxPosts) return;
      if (siteId === keep) continue;
      this.entries.delete(siteId);
      total -= entry.posts;
    }
  }
}
