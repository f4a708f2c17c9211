// The feeds service's named queries over its own collections, and their indexes: every query the
// service makes is here, and nothing outside this folder touches a collection (store/documents.ts has
// the documents).
import { DuplicateKeyError, nextId, type Collection, type Store } from '@murmur/store';
import type {
  UserDoc,
  SiteDoc,
  PostDoc,
  FollowDoc,
  Followee,
  WebmentionDoc,
  BookmarkType,
  BookmarkDoc,
  ReadLaterDoc,
  QueueTokenDoc,
  BlogrollDoc,
} from './documents.js';

export type * from './documents.js';

/** Applies `doc` unless a copy with the same or a newer revision is stored; true when applied. */
async function applyNewer<T extends { _id: number; rev: number; [key: string]: unknown }>(
  collection: Collection<T>,
  doc: T,
): Promise<boolean> {
  const { _id, ...rest } = doc;
  const { matchedCount } = await collection.updateOne({ _id, rev: { $lt: doc.rev } }, { $set: rest });
  if (matchedCount > 0) return true;
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
}

export class FeedsStore {
  private readonly users: Collection<UserDoc>;
  private readonly sites: Collection<SiteDoc>;
  private readonly posts: Collection<PostDoc>;
  private readonly follows: Collection<FollowDoc>;
  private readonly webmentions: Collection<WebmentionDoc>;
  private readonly bookmarks: Collection<BookmarkDoc>;
  private readonly readLater: Collection<ReadLaterDoc>;
  private readonly queueTokens: Collection<QueueTokenDoc>;
  private readonly blogroll: Collection<BlogrollDoc>;
  /** Small service-wide markers (`blogroll`: when the opt-in list last changed). */
  private readonly meta: Collection<{ _id: string; changedAt?: Date; [key: string]: unknown }>;

  constructor(readonly store: Store) {
    this.users = store.collection<UserDoc>('users');
    this.sites = store.collection<SiteDoc>('sites');
    this.posts = store.collection<PostDoc>('posts');
    this.follows = store.collection<FollowDoc>('follows');
    this.webmentions = store.collection<WebmentionDoc>('webmentions');
    this.bookmarks = store.collection<BookmarkDoc>('bookmarks');
    this.readLater = store.collection<ReadLaterDoc>('readlater');
    this.queueTokens = store.collection<QueueTokenDoc>('queuetokens');
    this.blogroll = store.collection<BlogrollDoc>('blogroll');
    this.meta = store.collection('meta');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      this.users.createIndex({ usernameKey: 1 }),
      this.sites.createIndex({ userId: 1 }),
      this.posts.createIndex({ userId: 1 }),
      // One edge per pair, whatever the concurrency.
      this.follows.createIndex({ followerId: 1, followeeId: 1 }, { unique: true }),
      this.follows.createIndex({ followeeId: 1 }),
      this.webmentions.createIndex({ targetUserId: 1 }),
      this.bookmarks.createIndex({ key: 1 }, { unique: true }),
      this.bookmarks.createIndex({ userId: 1 }),
      this.readLater.createIndex({ userId: 1 }),
    ]);
  }

  // ---- users and sites (copies) ----------------------------------------------------------------

  applyUser(doc: Omit<UserDoc, 'graphChangedAt' | 'graphVersion' | 'queueChangedAt'>): Promise<boolean> {
    return applyNewer(this.users, doc as UserDoc);
  }

  userById(id: number): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id });
  }

  userByUsername(username: string): Promise<UserDoc | null> {
    return this.users.findOne({ usernameKey: username.toLowerCase() });
  }

  usersByIds(ids: number[]): Promise<UserDoc[]> {
    return this.users.find({ _id: { $in: ids } });
  }

  async markGraphChanged(userId: number, at: Date): Promise<void> {
    await this.users.updateOne({ _id: userId }, { $max: { graphChangedAt: at }, $inc: { graphVersion: 1 } });
  }

  applySite(doc: SiteDoc): Promise<boolean> {
    return applyNewer(this.sites, doc);
  }

  defaultSitesOf(userIds: number[]): Promise<SiteDoc[]> {
    return this.sites.find({ userId: { $in: userIds }, isDefault: true });
  }

  sitesOf(userIds: number[]): Promise<SiteDoc[]> {
    return this.sites.find({ userId: { $in: userIds } });
  }

  siteByUrl(url: string): Promise<SiteDoc | null> {
    return this.sites.findOne({ url });
  }

  // ---- posts (copies) ----------------------------------------------------------------------------

  applyPost(doc: PostDoc): Promise<boolean> {
    return applyNewer(this.posts, doc);
  }

  postById(id: number): Promise<PostDoc | null> {
    return this.posts.findOne({ _id: id });
  }

  postsByIds(ids: number[]): Promise<PostDoc[]> {
    return this.posts.find({ _id: { $in: ids }, visible: true });
  }

  /** Only what the in-memory index needs, for every post (tombstones too). */
  allPostHeads(): Promise<
    Pick<PostDoc, '_id' | 'userId' | 'publishedAt' | 'mentionIds' | 'photos' | 'visible' | 'rev' | 'remote'>[]
  > {
    return this.posts.find(
      {},
      { projection: { userId: 1, publishedAt: 1, mentionIds: 1, photos: 1, visible: 1, rev: 1, remote: 1 } },
    );
  }

  async newestRev(collection: 'users' | 'sites'): Promise<number> {
    const [doc] = await this[collection].find({}, { sort: { rev: -1 }, limit: 1, projection: { rev: 1 } });
    return doc?.rev ?? 0;
  }

  // ---- follows -----------------------------------------------------------------------------------

  /** True when the edge was created (in `channel`, undefined: none), false when it existed. */
  async follow(followerId: number, followeeId: number, at: Date, channel?: string): Promise<boolean> {
    try {
      await this.follows.insertOne({
        followerId,
        followeeId,
        createdAt: at,
        ...(channel === undefined ? {} : { channel }),
      });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** Puts an existing edge into `channel` (undefined: none); true when that changed it. */
  async moveFollow(followerId: number, followeeId: number, channel: string | undefined): Promise<boolean> {
    const { modifiedCount } =
      channel === undefined
        ? await this.follows.updateOne(
            { followerId, followeeId, channel: { $exists: true } },
            { $unset: { channel: '' } },
          )
        : await this.follows.updateOne(
            { followerId, followeeId, channel: { $ne: channel } },
            { $set: { channel } },
          );
    return modifiedCount > 0;
  }

  /** Ends every edge of `followerId` in `channel`; how many there were. */
  async unfollowChannel(followerId: number, channel: string): Promise<number> {
    const { deletedCount } = await this.follows.deleteMany({ followerId, channel });
    return deletedCount;
  }

  async unfollow(followerId: number, followeeId: number): Promise<boolean> {
    const { deletedCount } = await this.follows.deleteOne({ followerId, followeeId });
    return deletedCount > 0;
  }

  /** Whom `followerId` follows, with the channel of each follow (undefined: none). */
  async followees(followerId: number): Promise<Followee[]> {
    const edges = await this.follows.find({ followerId }, { projection: { followeeId: 1, channel: 1 } });
    return edges.map((e) =>
      e.channel === undefined ? { id: e.followeeId } : { id: e.followeeId, channel: e.channel },
    );
  }

  /** When the edge was made, or null when there is none. */
  async followedAt(followerId: number, followeeId: number): Promise<Date | null> {
    return (await this.follows.findOne({ followerId, followeeId }))?.createdAt ?? null;
  }

  async isFollowing(followerId: number, followeeId: number): Promise<boolean> {
    return (await this.follows.findOne({ followerId, followeeId })) !== null;
  }

  // ---- webmentions (copies) ----------------------------------------------------------------------

  applyWebmention(doc: WebmentionDoc): Promise<boolean> {
    return applyNewer(this.webmentions, doc);
  }

  webmentionById(id: number): Promise<WebmentionDoc | null> {
    return this.webmentions.findOne({ _id: id });
  }

  webmentionsOf(userId: number, limit: number): Promise<WebmentionDoc[]> {
    return this.webmentions.find(
      { targetUserId: userId, visible: true },
      { sort: { received: -1, _id: -1 }, limit },
    );
  }

  async newestWebmentionRev(userId: number): Promise<number> {
    const [doc] = await this.webmentions.find(
      { targetUserId: userId },
      { sort: { rev: -1 }, limit: 1, projection: { rev: 1 } },
    );
    return doc?.rev ?? 0;
  }

  // ---- bookmarks and read later ------------------------------------------------------------------

  nextBookmarkId(): Promise<number> {
    return nextId(this.store, 'bookmarks');
  }

  nextReadLaterId(): Promise<number> {
    return nextId(this.store, 'readlater');
  }

  bookmarkById(id: number): Promise<BookmarkDoc | null> {
    return this.bookmarks.findOne({ _id: id });
  }

  /** Throws DuplicateKeyError when a bookmark with the same key is stored. */
  async insertBookmark(doc: BookmarkDoc): Promise<void> {
    await this.bookmarks.insertOne(doc);
  }

  async updateBookmark(id: number, set: Partial<BookmarkDoc>): Promise<void> {
    await this.bookmarks.updateOne({ _id: id }, { $set: set });
  }

  /** Sets `fields` on the bookmark stored under `key`; false when there is none. */
  async updateBookmarkByKey(key: string, fields: Partial<BookmarkDoc>): Promise<boolean> {
    const { matchedCount } = await this.bookmarks.updateOne({ key }, { $set: fields });
    return matchedCount > 0;
  }

  /** Gives the archived bookmark under `key` the article's content, unless it has content already. */
  async fillArchivedContent(
    key: string,
    content: Partial<Pick<BookmarkDoc, 'title' | 'contentHtml' | 'summary'>>,
  ): Promise<void> {
    await this.bookmarks.updateOne(
      { key, contentHtml: '' },
      { $set: { title: content.title, contentHtml: content.contentHtml, summary: content.summary } },
    );
  }

  readLaterById(id: number): Promise<ReadLaterDoc | null> {
    return this.readLater.findOne({ _id: id });
  }

  async insertReadLater(doc: ReadLaterDoc): Promise<void> {
    await this.readLater.insertOne(doc);
  }

  async updateReadLater(id: number, set: Partial<ReadLaterDoc>): Promise<void> {
    await this.readLater.updateOne({ _id: id }, { $set: set });
  }

  /** Archives the item unless it is archived already. */
  async archiveReadLater(id: number, at: Date): Promise<void> {
    await this.readLater.updateOne({ _id: id, archivedAt: null }, { $set: { archivedAt: at } });
  }

  bookmarkByKey(key: string): Promise<BookmarkDoc | null> {
    return this.bookmarks.findOne({ key });
  }

  bookmarkOf(userId: number, id: number): Promise<BookmarkDoc | null> {
    return this.bookmarks.findOne({ _id: id, userId });
  }

  bookmarksOf(
    userId: number,
    filter: { podcast?: boolean; beforeId?: number; type?: BookmarkType },
    limit: number,
  ): Promise<BookmarkDoc[]> {
    const query: Record<string, unknown> = { userId };
    if (filter.podcast === true) query.audio = { $ne: null };
    if (filter.podcast === false) query.audio = null;
    if (filter.beforeId !== undefined) query._id = { $lt: filter.beforeId };
    if (filter.type !== undefined) query.type = filter.type;
    return this.bookmarks.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  async deleteBookmark(userId: number, id: number): Promise<boolean> {
    return (await this.bookmarks.deleteOne({ _id: id, userId })).deletedCount > 0;
  }

  readLaterOf(userId: number, id: number): Promise<ReadLaterDoc | null> {
    return this.readLater.findOne({ _id: id, userId });
  }

  unarchivedReadLaterByUrl(userId: number, url: string): Promise<ReadLaterDoc | null> {
    return this.readLater.findOne({ userId, url, archivedAt: null });
  }

  readLaterQueue(userId: number, limit: number): Promise<ReadLaterDoc[]> {
    return this.readLater.find({ userId, archivedAt: null }, { sort: { savedAt: -1, _id: -1 }, limit });
  }

  async markQueueChanged(userId: number, at: Date): Promise<void> {
    await this.users.updateOne({ _id: userId }, { $max: { queueChangedAt: at } });
  }

  // ---- queue tokens and blogroll -----------------------------------------------------------------

  queueTokenOf(userId: number): Promise<QueueTokenDoc | null> {
    return this.queueTokens.findOne({ _id: userId });
  }

  /** Sets the token only when the user has none; returns the stored one either way. */
  async ensureQueueToken(userId: number, token: string, at: Date): Promise<QueueTokenDoc> {
    const doc = await this.queueTokens.findOneAndUpdate(
      { _id: userId },
      { $setOnInsert: { token, createdAt: at } },
      { upsert: true },
    );
    if (!doc) throw new Error('queue token upsert returned nothing');
    return doc;
  }

  async replaceQueueToken(userId: number, token: string, at: Date): Promise<QueueTokenDoc> {
    const doc = await this.queueTokens.findOneAndUpdate(
      { _id: userId },
      { $set: { token, createdAt: at } },
      { upsert: true },
    );
    if (!doc) throw new Error('queue token upsert returned nothing');
    return doc;
  }

  async setBlogroll(userId: number, categories: string[], at: Date): Promise<void> {
    await this.blogroll.updateOne(
      { _id: userId },
      { $set: { categories }, $setOnInsert: { addedAt: at } },
      { upsert: true },
    );
    await this.markBlogrollChanged(at);
  }

  async removeBlogroll(userId: number, at: Date): Promise<boolean> {
    const removed = (await this.blogroll.deleteOne({ _id: userId })).deletedCount > 0;
    if (removed) await this.markBlogrollChanged(at);
    return removed;
  }

  private async markBlogrollChanged(at: Date): Promise<void> {
    await this.meta.updateOne({ _id: 'blogroll' }, { $max: { changedAt: at } }, { upsert: true });
  }

  async blogrollChangedAt(): Promise<number> {
    const doc = await this.meta.findOne({ _id: 'blogroll' });
    return doc?.changedAt instanceof Date ? doc.changedAt.getTime() : 0;
  }

  blogrollEntries(): Promise<BlogrollDoc[]> {
    return this.blogroll.find({});
  }
}
