// Posts this process knows from an event before its store holds them. Every replica's listener puts a
// post event's head into the index at once (copies.ts: indexPostEvent), while the copy is stored by the
// durable consumer — in this process a moment later, or in another replica. A page read in between
// would find the head and no document: the newest post missing from a timeline whose count includes
// it, and a feed rendered without it under a validator that names it. So the listener keeps the
// event's document here, and a page takes it when the store has not caught up (timelines.ts).
// Entries leave when the durable consumer has stored them, when a read finds the stored copy as new,
// after MAX_AGE_MS (the store has long caught up by then), or beyond MAX_ENTRIES, oldest first.
import type { PostDoc } from '../store/index.js';

const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class PendingPosts {
  /** In arrival order, so the oldest are first. */
  private readonly docs = new Map<number, { doc: PostDoc; at: number }>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** Keeps `doc` unless a newer revision of it is kept already. */
  remember(doc: PostDoc): void {
    const now = this.nowMs();
    const kept = this.docs.get(doc._id);
    if (kept && kept.doc.rev > doc.rev) return;
    this.docs.delete(doc._id);
    this.docs.set(doc._id, { doc, at: now });
    for (const [id, entry] of this.docs) {
      if (this.docs.size <= MAX_ENTRIES && now - entry.at < MAX_AGE_MS) break;
      this.docs.delete(id);
    }
  }

  /** The document to show for a post whose stored copy is `stored` (or missing). */
  resolve(id: number, stored: PostDoc | undefined): PostDoc | undefined {
    const kept = this.docs.get(id);
    if (!kept) return stored;
    if (stored && stored.rev >= kept.doc.rev) {
      this.docs.delete(id);
      return stored;
    }
    return kept.doc.visible ? kept.doc : stored;
  }

  /** The store holds `doc` (or a newer revision): nothing to keep. */
  stored(doc: PostDoc): void {
    const kept = this.docs.get(doc._id);
    if (kept && kept.doc.rev <= doc.rev) this.docs.delete(doc._id);
  }

  get size(): number {
    return this.docs.size;
  }
}
