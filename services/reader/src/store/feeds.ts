// Named queries over what feeds share between users: feed records, their entries, timelines and
// pruned keys, site icons, and the markers of periodic work.
import { ReaderCollections } from './collections.js';
import type { EntryDoc, FeedDoc, FeedTimelineDoc, IconDoc, PrunedKeysDoc, ScheduleDoc } from './documents.js';

/** What a failed fetch writes on the feed. */
export type FeedFailure = Pick<
  FeedDoc,
  'lastError' | 'errorCount' | 'lastCheckedAt' | 'nextCheckAt' | 'updatedAt'
>;

/** What a successful fetch writes on the feed. */
export type FeedFetched = Pick<
  FeedDoc,
  | 'title'
  | 'siteUrl'
  | 'siteHost'
  | 'format'
  | 'jsonFeed'
  | 'etag'
  | 'lastModified'
  | 'intervalMinutes'
  | 'nextCheckAt'
  | 'lastCheckedAt'
  | 'lastError'
  | 'errorCount'
  | 'updatedAt'
>;

export class FeedQueries extends ReaderCollections {
  // feeds

  feedById(feedId: number): Promise<FeedDoc | null> {
    return this.feeds.findOne({ _id: feedId });
  }

  feedByUrl(url: string): Promise<FeedDoc | null> {
    return this.feeds.findOne({ url });
  }

  feedsByIds(feedIds: number[]): Promise<FeedDoc[]> {
    return this.feeds.find({ _id: { $in: feedIds } });
  }

  insertFeed(doc: FeedDoc): Promise<FeedDoc> {
    return this.feeds.insertOne(doc);
  }

  async recordFeedFailure(feedId: number, failure: FeedFailure): Promise<void> {
    await this.feeds.updateOne({ _id: feedId }, { $set: failure });
  }

  async recordFeedFetched(feedId: number, fetched: FeedFetched): Promise<void> {
    await this.feeds.updateOne({ _id: feedId }, { $set: fetched });
  }

  /** Throws DuplicateKeyError when `url` is another feed's already. */
  async moveFeed(feedId: number, url: string, at: Date): Promise<void> {
    await this.feeds.updateOne({ _id: feedId }, { $set: { url, updatedAt: at } });
  }

  async markFeedNotModified(feedId: number, checkedAt: Date, nextCheckAt: Date): Promise<void> {
    await this.feeds.updateOne(
      { _id: feedId },
      {
        $set: { lastCheckedAt: checkedAt, nextCheckAt, lastError: null, errorCount: 0 },
      },
    );
  }

  async setNextCheck(feedId: number, nextCheckAt: Date): Promise<void> {
    await this.feeds.updateOne({ _id: feedId }, { $set: { nextCheckAt } });
  }

  /** `by` is +1 on subscribing, -1 on unsubscribing. */
  async changeSubscriberCount(feedId: number, by: number): Promise<void> {
    await this.feeds.updateOne({ _id: feedId }, { $inc: { subscriberCount: by } });
  }

  /** The feeds due by `now`, soonest first (only `_id` and `subscriberCount`). */
  dueFeeds(now: Date, limit: number): Promise<Pick<FeedDoc, '_id' | 'subscriberCount'>[]> {
    return this.feeds.find(
      { nextCheckAt: { $lte: now } },
      { sort: { nextCheckAt: 1 }, limit, projection: { subscriberCount: 1 } },
    );
  }

  /** Feeds nobody subscribes to (only `_id`). */
  unsubscribedFeeds(): Promise<Pick<FeedDoc, '_id'>[]> {
    return this.feeds.find({ subscriberCount: { $lte: 0 } }, { projection: { _id: 1 } });
  }

  /** The sites of subscribed feeds (only `siteHost`, `siteUrl` and `url`). */
  sitesOfSubscribedFeeds(): Promise<Pick<FeedDoc, '_id' | 'siteHost' | 'siteUrl' | 'url'>[]> {
    return this.feeds.find(
      { subscriberCount: { $gt: 0 } },
      { projection: { siteHost: 1, siteUrl: 1, url: 1 } },
    );
  }

  // entries

  entriesOfFeedByKeys(feedId: number, keys: string[]): Promise<EntryDoc[]> {
    return this.entries.find({ feedId, key: { $in: keys } });
  }

  entriesByIds(ids: number[]): Promise<EntryDoc[]> {
    return this.entries.find({ _id: { $in: ids } });
  }

  /** Of `ids`, the entries someone starred (only `_id`). */
  starredEntriesAmong(ids: number[]): Promise<Pick<EntryDoc, '_id'>[]> {
    return this.entries.find({ _id: { $in: ids }, stars: { $gt: 0 } }, { projection: { _id: 1 } });
  }

  /** The keys of the entries `ids` (only `_id` and `key`). */
  keysOfEntries(ids: number[]): Promise<Pick<EntryDoc, '_id' | 'key'>[]> {
    return this.entries.find({ _id: { $in: ids } }, { projection: { key: 1 } });
  }

  async insertEntries(docs: EntryDoc[]): Promise<void> {
    await this.entries.insertMany(docs);
  }

  async updateEntry(entryId: number, fields: Partial<EntryDoc>): Promise<void> {
    await this.entries.updateOne({ _id: entryId }, { $set: fields });
  }

  /** `by` is +1 for each user starring, -1 for each unstarring. */
  async changeStars(entryIds: number[], by: number): Promise<void> {
    await this.entries.updateMany({ _id: { $in: entryIds } }, { $inc: { stars: by } });
  }

  async deleteEntries(entryIds: number[]): Promise<void> {
    await this.entries.deleteMany({ _id: { $in: entryIds } });
  }

  // timelines and pruned keys

  timelineOfFeed(feedId: number): Promise<FeedTimelineDoc | null> {
    return this.timelines.findOne({ _id: feedId });
  }

  timelinesOfFeeds(feedIds: number[]): Promise<FeedTimelineDoc[]> {
    return this.timelines.find({ _id: { $in: feedIds } });
  }

  /** Appends new entries (`times` parallel to `ids`), creating the timeline if needed. */
  async appendToTimeline(feedId: number, ids: number[], times: number[]): Promise<void> {
    await this.timelines.updateOne(
      { _id: feedId },
      { $push: { ids: { $each: ids }, times: { $each: times } } },
      { upsert: true },
    );
  }

  async setTimeline(feedId: number, ids: number[], times: number[]): Promise<void> {
    await this.timelines.updateOne({ _id: feedId }, { $set: { ids, times } });
  }

  async deleteTimeline(feedId: number): Promise<void> {
    await this.timelines.deleteOne({ _id: feedId });
  }

  prunedKeysOfFeed(feedId: number): Promise<PrunedKeysDoc | null> {
    return this.prunedKeys.findOne({ _id: feedId });
  }

  /** Adds key hashes, keeping the newest `max`. */
  async addPrunedKeys(feedId: number, hashes: string[], max: number): Promise<void> {
    await this.prunedKeys.updateOne(
      { _id: feedId },
      { $push: { keys: { $each: hashes, $slice: -max } } },
      { upsert: true },
    );
  }

  // icons

  iconOfHost(host: string): Promise<IconDoc | null> {
    return this.icons.findOne({ _id: host });
  }

  iconsOfHosts(hosts: string[]): Promise<IconDoc[]> {
    return this.icons.find({ _id: { $in: hosts } });
  }

  /** The icons of `hosts` checked after `since`. */
  iconsCheckedSince(hosts: string[], since: Date): Promise<IconDoc[]> {
    return this.icons.find({ _id: { $in: hosts }, checkedAt: { $gt: since } });
  }

  async recordIcon(host: string, url: string | null, checkedAt: Date): Promise<void> {
    await this.icons.updateOne({ _id: host }, { $set: { url, checkedAt } }, { upsert: true });
  }

  // schedule markers

  /** The marker of `name` moved to `now` if it last ran at or before `ranBefore`; null otherwise. */
  claimScheduleMarker(name: string, ranBefore: Date, now: Date): Promise<ScheduleDoc | null> {
    return this.schedule.findOneAndUpdate(
      { _id: name, lastRunAt: { $lte: ranBefore } },
      { $set: { lastRunAt: now } },
    );
  }

  /** Throws DuplicateKeyError when the marker exists. */
  async insertScheduleMarker(name: string, now: Date): Promise<void> {
    await this.schedule.insertOne({ _id: name, lastRunAt: now });
  }
}
