// Named queries over each user's own data: reading state, subscriptions, taggings and tags,
// highlights, recaps and their email settings, OPML imports.
import { FeedQueries } from './feeds.js';
import type {
  Day,
  HighlightDoc,
  ImportDoc,
  ImportItemDoc,
  RecapDoc,
  RecapSettingsDoc,
  SubscriptionDoc,
  TagDoc,
  TaggingDoc,
  UserStateDoc,
} from './documents.js';

/** The `<list>ChangedAt` times a state write sets (domain/states.ts, listTimes). */
type ListTimes = Partial<
  Pick<UserStateDoc, 'subscriptionsChangedAt' | 'taggingsChangedAt' | 'unreadChangedAt' | 'starredChangedAt'>
>;

/** The sets and list times a state write replaces. */
export type StateFields = Pick<UserStateDoc, 'unread' | 'arrived' | 'arrivedCount' | 'starred'> & ListTimes;

export class UserQueries extends FeedQueries {
  // reading state

  stateOfUser(userId: number): Promise<UserStateDoc | null> {
    return this.states.findOne({ _id: userId });
  }

  /** Only `version` and `updatedAt`. */
  stateVersionOfUser(userId: number): Promise<Pick<UserStateDoc, '_id' | 'version' | 'updatedAt'> | null> {
    return this.states.findOne({ _id: userId }, { projection: { version: 1, updatedAt: 1 } });
  }

  /** Throws DuplicateKeyError when the user has a state already. */
  async insertState(doc: UserStateDoc): Promise<void> {
    await this.states.insertOne(doc);
  }

  /** Writes the sets if the state is still at `version` (and increments it); false when it was not. */
  async writeStateAtVersion(
    userId: number,
    version: number,
    fields: StateFields,
    updatedAt: Date,
  ): Promise<boolean> {
    const r = await this.states.updateOne(
      { _id: userId, version },
      { $set: { ...fields, updatedAt }, $inc: { version: 1 }, $min: { listsTrackedSince: updatedAt } },
    );
    return r.matchedCount === 1;
  }

  /**
   * Appends `ids` to the arrived entries (the newest `max` kept) and increments the version; resolves
   * to the new version and how many ids arrived since the last fold, if returned.
   */
  async pushArrived(
    userId: number,
    ids: number[],
    max: number,
    times: ListTimes,
    updatedAt: Date,
  ): Promise<Pick<UserStateDoc, 'version' | 'arrivedCount'> | null> {
    return this.states.findOneAndUpdate(
      { _id: userId },
      {
        $push: { arrived: { $each: ids, $slice: -max } },
        $inc: { version: 1, arrivedCount: ids.length },
        $set: { updatedAt, ...times },
        $min: { listsTrackedSince: updatedAt },
        $setOnInsert: { unread: '', starred: [] },
      },
      { upsert: true, returnDocument: 'after', projection: { version: 1, arrivedCount: 1 } },
    );
  }

  /** Increments the version (creating the state if needed); resolves to the new version, if returned. */
  async touchState(userId: number, times: ListTimes, updatedAt: Date): Promise<number | undefined> {
    const doc = await this.states.findOneAndUpdate(
      { _id: userId },
      {
        $inc: { version: 1 },
        $set: { updatedAt, ...times },
        $min: { listsTrackedSince: updatedAt },
        $setOnInsert: { unread: '', arrived: [], starred: [] },
      },
      { upsert: true, returnDocument: 'after', projection: { version: 1 } },
    );
    return doc?.version;
  }

  // subscriptions

  subscriptionsOfUser(userId: number): Promise<SubscriptionDoc[]> {
    return this.subscriptions.find({ userId });
  }

  subscriptionCountOfUser(userId: number): Promise<number> {
    return this.subscriptions.countDocuments({ userId });
  }

  subscriptionOfFeed(userId: number, feedId: number): Promise<SubscriptionDoc | null> {
    return this.subscriptions.findOne({ userId, feedId });
  }

  /** The subscribers of the feed (only `userId`). */
  subscribersOfFeed(feedId: number): Promise<Pick<SubscriptionDoc, '_id' | 'userId'>[]> {
    return this.subscriptions.find({ feedId }, { projection: { userId: 1 } });
  }

  /** Throws DuplicateKeyError when the user subscribes to the feed already. */
  async insertSubscription(doc: SubscriptionDoc): Promise<void> {
    await this.subscriptions.insertOne(doc);
  }

  async renameSubscription(id: number, userId: number, title: string, at: Date): Promise<void> {
    await this.subscriptions.updateOne({ _id: id, userId }, { $set: { title, updatedAt: at } });
  }

  /** False when the user has no such subscription. */
  async deleteSubscription(id: number, userId: number): Promise<boolean> {
    const r = await this.subscriptions.deleteOne({ _id: id, userId });
    return r.deletedCount > 0;
  }

  // taggings and tags

  taggingsOfUser(userId: number): Promise<TaggingDoc[]> {
    return this.taggings.find({ userId });
  }

  taggingOfUser(userId: number, id: number): Promise<TaggingDoc | null> {
    return this.taggings.findOne({ _id: id, userId });
  }

  taggingOfFeed(userId: number, feedId: number, name: string): Promise<TaggingDoc | null> {
    return this.taggings.findOne({ userId, feedId, name });
  }

  taggingsNamed(userId: number, name: string): Promise<TaggingDoc[]> {
    return this.taggings.find({ userId, name });
  }

  /** Throws DuplicateKeyError when the feed carries the name already. */
  async insertTagging(doc: TaggingDoc): Promise<void> {
    await this.taggings.insertOne(doc);
  }

  async renameTagging(id: number, name: string): Promise<void> {
    await this.taggings.updateOne({ _id: id }, { $set: { name } });
  }

  async deleteTagging(id: number): Promise<void> {
    await this.taggings.deleteOne({ _id: id });
  }

  /** False when the user has no such tagging. */
  async deleteTaggingOfUser(userId: number, id: number): Promise<boolean> {
    const r = await this.taggings.deleteOne({ _id: id, userId });
    return r.deletedCount > 0;
  }

  async deleteTaggingsOfFeed(userId: number, feedId: number): Promise<void> {
    await this.taggings.deleteMany({ userId, feedId });
  }

  async deleteTaggingsNamed(userId: number, name: string): Promise<void> {
    await this.taggings.deleteMany({ userId, name });
  }

  tagsOfUser(userId: number): Promise<TagDoc[]> {
    return this.tags.find({ userId });
  }

  tagNamed(userId: number, name: string): Promise<TagDoc | null> {
    return this.tags.findOne({ userId, name });
  }

  /** Throws DuplicateKeyError when the user has the tag already. */
  async insertTag(doc: TagDoc): Promise<void> {
    await this.tags.insertOne(doc);
  }

  async renameTagById(id: number, name: string): Promise<void> {
    await this.tags.updateOne({ _id: id }, { $set: { name } });
  }

  async deleteTagById(id: number): Promise<void> {
    await this.tags.deleteOne({ _id: id });
  }

  async deleteTagsNamed(userId: number, name: string): Promise<void> {
    await this.tags.deleteMany({ userId, name });
  }

  // highlights

  /** Newest first. */
  highlightsOfUser(userId: number): Promise<HighlightDoc[]> {
    return this.highlights.find({ userId }, { sort: { createdAt: -1, _id: -1 } });
  }

  /** Newest first. */
  highlightsOfEntry(userId: number, entryId: number): Promise<HighlightDoc[]> {
    return this.highlights.find({ entryId, userId }, { sort: { createdAt: -1, _id: -1 } });
  }

  highlightCountOfEntry(userId: number, entryId: number): Promise<number> {
    return this.highlights.countDocuments({ entryId, userId });
  }

  async insertHighlight(doc: HighlightDoc): Promise<void> {
    await this.highlights.insertOne(doc);
  }

  /** False when the user has no such highlight of that entry. */
  async deleteHighlightOfEntry(userId: number, entryId: number, id: number): Promise<boolean> {
    const r = await this.highlights.deleteOne({ _id: id, entryId, userId });
    return r.deletedCount > 0;
  }

  // recaps and their email settings

  recapByKey(key: string): Promise<RecapDoc | null> {
    return this.recaps.findOne({ _id: key });
  }

  /** Throws DuplicateKeyError when the recap exists. */
  async insertRecap(doc: RecapDoc): Promise<void> {
    await this.recaps.insertOne(doc);
  }

  /** Stores the built recap; `created` fills a recap that expired meanwhile. */
  async finishRecap(
    key: string,
    html: string,
    at: Date,
    created: Pick<RecapDoc, 'userId' | 'ids' | 'createdAt' | 'expiresAt'>,
  ): Promise<void> {
    await this.recaps.updateOne(
      { _id: key },
      { $set: { status: 'ready', html, updatedAt: at }, $setOnInsert: created },
      { upsert: true },
    );
  }

  async deleteRecap(key: string): Promise<void> {
    await this.recaps.deleteOne({ _id: key });
  }

  recapSettingsOfUser(userId: number): Promise<RecapSettingsDoc | null> {
    return this.recapSettings.findOne({ _id: userId });
  }

  recapSettingsOfDay(day: Day): Promise<RecapSettingsDoc[]> {
    return this.recapSettings.find({ dayofweek: day });
  }

  async setRecapEmailDay(userId: number, day: Day | ''): Promise<void> {
    await this.recapSettings.updateOne(
      { _id: userId },
      { $set: { dayofweek: day }, $setOnInsert: { lastSentOn: null } },
      { upsert: true },
    );
  }

  /** `date`: `YYYY-MM-DD` (UTC). */
  async markRecapEmailSent(userId: number, date: string): Promise<void> {
    await this.recapSettings.updateOne({ _id: userId }, { $set: { lastSentOn: date } });
  }

  // OPML imports

  importById(id: number): Promise<ImportDoc | null> {
    return this.imports.findOne({ _id: id });
  }

  importOfUser(userId: number, id: number): Promise<ImportDoc | null> {
    return this.imports.findOne({ _id: id, userId });
  }

  importsOfUser(userId: number): Promise<ImportDoc[]> {
    return this.imports.find({ userId });
  }

  async insertImport(doc: ImportDoc): Promise<void> {
    await this.imports.insertOne(doc);
  }

  async setImportItemStatus(id: number, index: number, status: ImportItemDoc['status']): Promise<void> {
    await this.imports.updateOne({ _id: id }, { $set: { [`items.${index}.status`]: status } });
  }

  async markImportComplete(id: number): Promise<void> {
    await this.imports.updateOne({ _id: id }, { $set: { complete: true } });
  }
}
