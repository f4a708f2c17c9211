// The reader's store: named queries over its own collections (store/feeds.ts for feeds, entries,
// timelines, icons and schedule markers; store/users.ts for per-user data) and their indexes. Nothing
// outside this folder touches a collection.
//
// nedb indexes one field and removes a document from an index node in O(documents under that key), so
// indexes here start with a field of high cardinality wherever documents are updated often.
import { DuplicateKeyError } from '@murmur/platform';
import { UserQueries } from './users.js';

export * from './documents.js';

export class ReaderStore extends UserQueries {
  async createIndexes(): Promise<void> {
    await this.feeds.createIndex({ url: 1 }, { unique: true });
    await this.feeds.createIndex({ nextCheckAt: 1 });
    await this.entries.createIndex({ feedId: 1, key: 1 }, { unique: true });
    await this.subscriptions.createIndex({ userId: 1, feedId: 1 }, { unique: true });
    await this.subscriptions.createIndex({ feedId: 1 });
    await this.taggings.createIndex({ userId: 1, feedId: 1, name: 1 }, { unique: true });
    await this.tags.createIndex({ userId: 1, name: 1 }, { unique: true });
    await this.highlights.createIndex({ entryId: 1 });
    await this.highlights.createIndex({ userId: 1, createdAt: -1 });
    await this.recaps.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await this.recapSettings.createIndex({ dayofweek: 1 });
    await this.imports.createIndex({ userId: 1 });
  }

  /** `count` consecutive ids of the named counter (the same documents `nextId` uses). */
  async reserveIds(name: string, count: number): Promise<number[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const counter = await this.counters.findOneAndUpdate(
          { _id: name },
          { $inc: { seq: count } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!counter) throw new Error(`counter ${name} was not returned`);
        return Array.from({ length: count }, (_, i) => counter.seq - count + 1 + i);
      } catch (err) {
        // Two first-ever upserts may race on MongoDB; the loser increments the winner's document.
        if (!(err instanceof DuplicateKeyError) || attempt >= 3) throw err;
      }
    }
  }
}
