// Whom each user follows (and in which Microsub channel), cached per process and keyed by the user's
// `graphVersion` (bumped in the store by every follow, move between channels and unfollow, by whichever
// replica handles it), so a stale list is never used: the request that resolves the user reads the
// version anyway.
import type { Followee } from '../store/index.js';

export class FollowingCache {
  private readonly entries = new Map<number, { version: number; followees: Followee[] }>();

  constructor(private readonly maxUsers: number) {}

  get(userId: number, version: number): Followee[] | undefined {
    const entry = this.entries.get(userId);
    if (!entry || entry.version !== version) return undefined;
    // Refresh the entry's place in the insertion order: the map's first key is the least recently used.
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.followees;
  }

  set(userId: number, version: number, followees: Followee[]): void {
    this.entries.delete(userId);
    this.entries.set(userId, { version, followees });
    while (this.entries.size > this.maxUsers) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
