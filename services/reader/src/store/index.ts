// The reader's store: named queries over its own collections (store/feeds.ts for feeds, entries,
// timelines, icons and schedule markers; store/users.ts for per-user data) and their indexes. Nothing
// outside this folder touches a collection.
//
// Indexes here start with a field of high cardinality wherever documents are updated often: an
// update rewrites the document's key in every index, and a low-cardinality first field makes a
// range of equal keys that every such query has to walk.
import { DuplicateKeyError, reserveIds } from '@murmur/store';
import type { ExtractDoc, WebSubDoc } from './documents.js';
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
    await this.extracts.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await this.websub.createIndex({ feedId: 1 });
    await this.websub.createIndex({ renewAt: 1 });
  }

  /**
   * Runs `writes` as one step. On the embedded store all are started in this turn of the event loop,
   * so they share its SQLite transaction and one fsync wait (libs/store-embedded/src/sqlite-file.ts):
   * a poll's entries, timeline, feed record and subscribers' unread ids cost one durable commit, not
   * one each. On MongoDB one after another in the order given, each acknowledged before the next
   * starts, so no reader sees a later write without the earlier ones. Rejects with the first failure
   * (on the embedded store the others may have been written: callers write nothing that a failure
   * of another would make wrong, or clean up as they did before).
   */
  async together(writes: readonly (() => Promise<unknown>)[]): Promise<void> {
    if (this.raw.kind !== 'embedded') {
      for (const write of writes) await write();
      return;
    }
    const settled = await Promise.allSettled(writes.map((write) => write()));
    for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  }

  /** `count` consecutive ids of the named counter (the same documents `nextId` uses), in one write. */
  reserveIds(name: string, count: number): Promise<number[]> {
    return reserveIds(this.raw, name, count);
  }

  /**
   * The named setting, created with `initial()` when absent. Replicas starting together agree: the
   * first insert wins and the others read it.
   */
  async settingOrCreate(name: string, initial: () => string): Promise<string> {
    const found = await this.settings.findOne({ _id: name });
    if (found) return found.value;
    try {
      const value = initial();
      await this.settings.insertOne({ _id: name, value });
      return value;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const winner = await this.settings.findOne({ _id: name });
      if (!winner) throw err;
      return winner.value;
    }
  }

  extractOfEntry(entryId: number): Promise<ExtractDoc | null> {
    return this.extracts.findOne({ _id: entryId });
  }

  async saveExtract(doc: ExtractDoc): Promise<void> {
    const { _id, ...fields } = doc;
    await this.extracts.updateOne({ _id }, { $set: fields }, { upsert: true });
  }

  // WebSub subscriptions (domain/websub.ts)

  webSubByToken(token: string): Promise<WebSubDoc | null> {
    return this.websub.findOne({ _id: token });
  }

  /** Every WebSub record of the feed (at most one not `unsubscribing`). */
  webSubsOfFeed(feedId: number): Promise<WebSubDoc[]> {
    return this.websub.find({ feedId });
  }

  async insertWebSub(doc: WebSubDoc): Promise<void> {
    await this.websub.insertOne(doc);
  }

  async updateWebSub(token: string, fields: Partial<WebSubDoc>): Promise<void> {
    await this.websub.updateOne({ _id: token }, { $set: fields });
  }

  /** Sets `fields` only while the record is in `state`; false when it is not (or gone). */
  async updateWebSubIn(
    token: string,
    state: WebSubDoc['state'],
    fields: Partial<WebSubDoc>,
  ): Promise<boolean> {
    const found = await this.websub.findOneAndUpdate({ _id: token, state }, { $set: fields });
    return found !== null;
  }

  async deleteWebSub(token: string): Promise<void> {
    await this.websub.deleteOne({ _id: token });
  }

  /** Records whose `renewAt` has come (soonest first). */
  dueWebSubs(now: Date, limit: number): Promise<WebSubDoc[]> {
    return this.websub.find({ renewAt: { $lte: now } }, { sort: { renewAt: 1 }, limit });
  }
}
