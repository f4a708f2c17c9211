// The websub service's named queries over its own collections, and their indexes: every query the
// service makes is here, and nothing else touches a collection.
import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Store } from '@murmur/store';

/** One subscription: a (topic, callback) pair, verified, until its lease ends. */
export type SubscriptionDoc = {
  /** Hash of topic and callback: a re-subscription updates the same document (websub.rocks hub 103). */
  _id: string;
  topic: string;
  callback: string;
  /** The callback's host (with port): deliveries are grouped by it. */
  callbackHost: string;
  /** The subscriber's hub.secret, when it gave one (signs every delivery). */
  secret?: string;
  leaseSeconds: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
};

/** What the hub last distributed for a topic, to tell a new document from the same one. */
export type TopicDoc = {
  _id: string;
  contentHash?: string;
  etag?: string;
  lastFetchedAt?: Date;
  lastDistributedAt?: Date;
};

/** A document distributed once to every subscriber of its topic; kept while deliveries may retry. */
export type ContentDoc = {
  _id: string;
  topic: string;
  /** Base64 of the body as the topic served it. */
  body: string;
  contentType: string;
  createdAt: Date;
  expiresAt: Date;
};

/** Which subscriptions of one callback host have a content (a job run twice sends nothing twice). */
export type DeliveryDoc = {
  _id: string;
  done: string[];
  dropped: string[];
  status: 'delivering' | 'delivered' | 'retrying' | 'failed';
  lastError?: string;
  updatedAt: Date;
  expiresAt: Date;
};

export const subscriptionId = (topic: string, callback: string): string =>
  createHash('sha256').update(topic).update('\u0000').update(callback).digest('base64url').slice(0, 32);

/** Contents and delivery records are kept a week: longer than any retry schedule. */
const KEEP_MS = 7 * 86_400_000;

export class WebsubStore {
  private readonly subscriptions: Collection<SubscriptionDoc>;
  private readonly topics: Collection<TopicDoc>;
  private readonly contents: Collection<ContentDoc>;
  private readonly deliveries: Collection<DeliveryDoc>;

  constructor(readonly store: Store) {
    this.subscriptions = store.collection<SubscriptionDoc>('subscriptions');
    this.topics = store.collection<TopicDoc>('topics');
    this.contents = store.collection<ContentDoc>('contents');
    this.deliveries = store.collection<DeliveryDoc>('deliveries');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      this.subscriptions.createIndex({ topic: 1, expiresAt: 1 }),
      this.subscriptions.createIndex({ expiresAt: 1 }),
      this.contents.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.deliveries.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
    ]);
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  /** Creates or renews the subscription of (topic, callback) with a verified lease. */
  async upsertSubscription(
    s: Pick<SubscriptionDoc, 'topic' | 'callback' | 'callbackHost' | 'secret' | 'leaseSeconds'>,
    now: Date,
  ): Promise<void> {
    const _id = subscriptionId(s.topic, s.callback);
    await this.subscriptions.updateOne(
      { _id },
      {
        $set: {
          topic: s.topic,
          callback: s.callback,
          callbackHost: s.callbackHost,
          leaseSeconds: s.leaseSeconds,
          expiresAt: new Date(now.getTime() + s.leaseSeconds * 1000),
          updatedAt: now,
          ...(s.secret === undefined ? {} : { secret: s.secret }),
        },
        ...(s.secret === undefined ? { $unset: { secret: '' } } : {}),
        $setOnInsert: { createdAt: now },
      },
      { upsert: true },
    );
  }

  async deleteSubscription(topic: string, callback: string): Promise<boolean> {
    const { deletedCount } = await this.subscriptions.deleteOne({ _id: subscriptionId(topic, callback) });
    return deletedCount > 0;
  }

  subscription(topic: string, callback: string): Promise<SubscriptionDoc | null> {
    return this.subscriptions.findOne({ _id: subscriptionId(topic, callback) });
  }

  /** The subscriptions of `topic` whose lease has not ended. */
  liveSubscriptions(topic: string, now: Date): Promise<SubscriptionDoc[]> {
    return this.subscriptions.find(
      { topic, expiresAt: { $gt: now } },
      { projection: { _id: 1, callbackHost: 1 } },
    );
  }

  /** The subscriptions of `ids` still live (one read for a whole host's delivery). */
  liveSubscriptionsByIds(ids: string[], now: Date): Promise<SubscriptionDoc[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.subscriptions.find({ _id: { $in: ids }, expiresAt: { $gt: now } });
  }

  /** Drops every subscription whose lease has ended; how many. */
  async dropExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.subscriptions.deleteMany({ expiresAt: { $lte: now } });
    return deletedCount;
  }

  /** Every topic with at least one live subscription. */
  async subscribedTopics(now: Date): Promise<string[]> {
    const docs = await this.subscriptions.find({ expiresAt: { $gt: now } }, { projection: { topic: 1 } });
    return [...new Set(docs.map((d) => d.topic))];
  }

  // ---- topics and contents ---------------------------------------------------------------------

  topic(url: string): Promise<TopicDoc | null> {
    return this.topics.findOne({ _id: url });
  }

  async noteFetched(url: string, fields: { etag?: string }, now: Date): Promise<void> {
    await this.topics.updateOne(
      { _id: url },
      { $set: { lastFetchedAt: now, ...(fields.etag ? { etag: fields.etag } : {}) } },
      { upsert: true },
    );
  }

  /**
   * Records `contentHash` as the topic's distributed document unless it already is; true when this
   * call made the change (two refreshes of the same change distribute it once).
   */
  async claimContent(
    url: string,
    contentHash: string,
    etag: string | undefined,
    now: Date,
  ): Promise<boolean> {
    const res = await this.topics
      .updateOne(
        { _id: url, contentHash: { $ne: contentHash } },
        {
          $set: {
            contentHash,
            lastFetchedAt: now,
            lastDistributedAt: now,
            ...(etag ? { etag } : {}),
          },
        },
        { upsert: true },
      )
      .catch(async (err: unknown) => {
        // Upsert raced with a concurrent claim of the same hash: the other one distributes.
        if (err instanceof DuplicateKeyError)
          return { matchedCount: 0, modifiedCount: 0, upsertedId: undefined };
        throw err;
      });
    return res.modifiedCount > 0 || res.upsertedId !== undefined;
  }

  async keepContent(doc: Omit<ContentDoc, 'expiresAt'>): Promise<void> {
    await this.contents.updateOne(
      { _id: doc._id },
      { $setOnInsert: { ...doc, expiresAt: new Date(doc.createdAt.getTime() + KEEP_MS) } },
      { upsert: true },
    );
  }

  content(id: string): Promise<ContentDoc | null> {
    return this.contents.findOne({ _id: id });
  }

  // ---- deliveries ------------------------------------------------------------------------------

  async openDelivery(id: string, now: Date): Promise<DeliveryDoc> {
    const doc = await this.deliveries.findOneAndUpdate(
      { _id: id },
      {
        $setOnInsert: {
          done: [],
          dropped: [],
          status: 'delivering',
          updatedAt: now,
          expiresAt: new Date(now.getTime() + KEEP_MS),
        },
      },
      { upsert: true },
    );
    return doc!;
  }

  async recordDeliveryProgress(
    id: string,
    progress: { done: string[]; dropped: string[]; status: DeliveryDoc['status']; lastError?: string },
    now: Date,
  ): Promise<void> {
    await this.deliveries.updateOne(
      { _id: id },
      {
        $addToSet: { done: { $each: progress.done }, dropped: { $each: progress.dropped } },
        $set: {
          status: progress.status,
          updatedAt: now,
          ...(progress.lastError === undefined ? {} : { lastError: progress.lastError }),
        },
      },
    );
  }

  delivery(id: string): Promise<DeliveryDoc | null> {
    return this.deliveries.findOne({ _id: id });
  }
}
