// The federation service's named queries over its own collections, and their indexes: every query the
// service makes is here (store/documents.ts has the documents). No other service opens them.
import { createHash } from 'node:crypto';
import { federation } from '@murmur/contracts';
import { DuplicateKeyError, nextId, type Collection, type Store } from '@murmur/store';
import type {
  ActivityDoc,
  ActorDoc,
  DeliveryDoc,
  FollowerDoc,
  FollowingDoc,
  InboxDoc,
  InteractionDoc,
  KeyDoc,
  PostDoc,
  RemotePostDoc,
  UserDoc,
} from './documents.js';

export type * from './documents.js';

const DAY = 86_400_000;
/** Inbound activity ids are remembered this long (a redelivery within it changes nothing). */
const INBOX_RETENTION_MS = 30 * DAY;
/** Sent activities and their delivery records outlive the longest retry (about 2.5 days) with room. */
const ACTIVITY_RETENTION_MS = 14 * DAY;

function hashed(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Inserts `doc` unless the same or a newer revision is stored; true when applied. */
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

export class FederationStore {
  private readonly keys: Collection<KeyDoc>;
  private readonly users: Collection<UserDoc>;
  private readonly posts: Collection<PostDoc>;
  private readonly actors: Collection<ActorDoc>;
  private readonly followers: Collection<FollowerDoc>;
  private readonly following: Collection<FollowingDoc>;
  private readonly remotePosts: Collection<RemotePostDoc>;
  private readonly interactions: Collection<InteractionDoc>;
  private readonly inbox: Collection<InboxDoc>;
  private readonly activities: Collection<ActivityDoc>;
  private readonly deliveries: Collection<DeliveryDoc>;

  constructor(readonly store: Store) {
    this.keys = store.collection('keys');
    this.users = store.collection('users');
    this.posts = store.collection('posts');
    this.actors = store.collection('actors');
    this.followers = store.collection('followers');
    this.following = store.collection('following');
    this.remotePosts = store.collection('remoteposts');
    this.interactions = store.collection('interactions');
    this.inbox = store.collection('inbox');
    this.activities = store.collection('activities');
    this.deliveries = store.collection('deliveries');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      this.users.createIndex({ usernameKey: 1 }),
      this.posts.createIndex({ userId: 1, visible: 1, publishedAt: -1 }),
      this.posts.createIndex({ url: 1 }),
      this.actors.createIndex({ actorId: 1 }, { unique: true }),
      this.actors.createIndex({ handle: 1 }),
      this.actors.createIndex({ keyId: 1 }),
      this.followers.createIndex({ userId: 1 }),
      this.followers.createIndex({ actor: 1 }),
      this.following.createIndex({ actor: 1 }),
      this.following.createIndex({ userId: 1 }),
      this.following.createIndex({ followId: 1 }),
      this.remotePosts.createIndex({ objectId: 1 }, { unique: true }),
      this.remotePosts.createIndex({ actor: 1 }),
      this.interactions.createIndex({ key: 1 }, { unique: true }),
      this.interactions.createIndex({ actor: 1 }),
      this.interactions.createIndex({ postId: 1 }),
      this.inbox.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.activities.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.deliveries.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.deliveries.createIndex({ activityId: 1 }),
    ]);
  }

  // ---- keys ---------------------------------------------------------------------------------------

  keyOf(owner: number): Promise<KeyDoc | null> {
    return this.keys.findOne({ _id: owner });
  }

  /** Stores a new key pair unless one exists; returns the stored one (the first writer wins). */
  async keepKey(doc: KeyDoc): Promise<KeyDoc> {
    try {
      await this.keys.insertOne(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const stored = await this.keys.findOne({ _id: doc._id });
      if (!stored) throw err;
      return stored;
    }
  }

  // ---- local users and posts (copies) -------------------------------------------------------------

  applyUser(doc: UserDoc): Promise<boolean> {
    return applyNewer(this.users, doc);
  }

  userById(id: number): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id });
  }

  userByUsername(username: string): Promise<UserDoc | null> {
    return this.users.findOne({ usernameKey: username.toLowerCase() });
  }

  countUsers(): Promise<number> {
    return this.users.countDocuments({});
  }

  applyPost(doc: PostDoc): Promise<boolean> {
    return applyNewer(this.posts, doc);
  }

  postById(id: number): Promise<PostDoc | null> {
    return this.posts.findOne({ _id: id });
  }

  postByUrl(url: string): Promise<PostDoc | null> {
    return this.posts.findOne({ url, visible: true });
  }

  countPublicPosts(userId?: number): Promise<number> {
    return this.posts.countDocuments(userId === undefined ? { visible: true } : { userId, visible: true });
  }

  publicPostsOf(userId: number, skip: number, limit: number): Promise<PostDoc[]> {
    return this.posts.find({ userId, visible: true }, { sort: { publishedAt: -1, _id: -1 }, skip, limit });
  }

  // ---- remote actors --------------------------------------------------------------------------------

  actorById(id: number): Promise<ActorDoc | null> {
    return this.actors.findOne({ _id: id });
  }

  actorByActorId(actorId: string): Promise<ActorDoc | null> {
    return this.actors.findOne({ actorId });
  }

  actorByHandle(handle: string): Promise<ActorDoc | null> {
    return this.actors.findOne({ handle: handle.toLowerCase(), deleted: { $ne: true } });
  }

  actorByKeyId(keyId: string): Promise<ActorDoc | null> {
    return this.actors.findOne({ keyId });
  }

  actorsByIds(ids: number[]): Promise<ActorDoc[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.actors.find({ _id: { $in: ids } });
  }

  /** Stores what an actor document said; keeps the actor's number when it is known. */
  async keepActor(fields: Omit<ActorDoc, '_id'>): Promise<ActorDoc> {
    const known = await this.actors.findOne({ actorId: fields.actorId });
    if (known) {
      await this.actors.updateOne({ _id: known._id }, { $set: fields, $unset: { deleted: '' } });
      return { ...known, ...fields, deleted: undefined } as ActorDoc;
    }
    const doc = {
      _id: federation.REMOTE_ID_BASE + (await nextId(this.store, 'actors')),
      ...fields,
    } as ActorDoc;
    try {
      await this.actors.insertOne(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const stored = await this.actors.findOne({ actorId: fields.actorId });
      if (!stored) throw err;
      return stored;
    }
  }

  async markActorDeleted(id: number): Promise<void> {
    await this.actors.updateOne({ _id: id }, { $set: { deleted: true } });
  }

  // ---- followers and following --------------------------------------------------------------------

  /** true when the follower is new. */
  async addFollower(doc: FollowerDoc): Promise<boolean> {
    const { matchedCount } = await this.followers.updateOne(
      { _id: doc._id },
      { $set: { followId: doc.followId } },
    );
    if (matchedCount > 0) return false;
    try {
      await this.followers.insertOne(doc);
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  async removeFollower(userId: number, actor: number): Promise<FollowerDoc | null> {
    const doc = await this.followers.findOne({ _id: `${userId} ${actor}` });
    if (!doc) return null;
    const { deletedCount } = await this.followers.deleteOne({ _id: doc._id });
    return deletedCount > 0 ? doc : null;
  }

  followersOf(userId: number): Promise<FollowerDoc[]> {
    return this.followers.find({ userId });
  }

  followedByActor(actor: number): Promise<FollowerDoc[]> {
    return this.followers.find({ actor });
  }

  countFollowers(userId: number): Promise<number> {
    return this.followers.countDocuments({ userId });
  }

  async addFollowing(doc: FollowingDoc): Promise<FollowingDoc> {
    try {
      await this.following.insertOne(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      return (await this.following.findOne({ _id: doc._id })) ?? doc;
    }
  }

  followingOf(userId: number, actor: number): Promise<FollowingDoc | null> {
    return this.following.findOne({ _id: `${userId} ${actor}` });
  }

  followingByFollowId(followId: string): Promise<FollowingDoc | null> {
    return this.following.findOne({ followId });
  }

  async setFollowingState(id: string, state: FollowingDoc['state']): Promise<void> {
    await this.following.updateOne({ _id: id }, { $set: { state } });
  }

  async removeFollowing(id: string): Promise<boolean> {
    return (await this.following.deleteOne({ _id: id })).deletedCount > 0;
  }

  /** Local users who follow `actor` (any state: a post that arrives was sent to them). */
  async localFollowersOfActor(actor: number): Promise<number[]> {
    return (await this.following.find({ actor })).map((f) => f.userId);
  }

  countFollowing(userId: number): Promise<number> {
    return this.following.countDocuments({ userId });
  }

  async removeEdgesOfActor(actor: number): Promise<{ followers: FollowerDoc[]; following: FollowingDoc[] }> {
    const [followers, following] = await Promise.all([
      this.followers.find({ actor }),
      this.following.find({ actor }),
    ]);
    await Promise.all([this.followers.deleteMany({ actor }), this.following.deleteMany({ actor })]);
    return { followers, following };
  }

  // ---- remote posts and interactions --------------------------------------------------------------

  remotePostByObjectId(objectId: string): Promise<RemotePostDoc | null> {
    return this.remotePosts.findOne({ objectId });
  }

  remotePostsOfActor(actor: number): Promise<RemotePostDoc[]> {
    return this.remotePosts.find({ actor, visible: true });
  }

  /** Inserts a new remote post (numbered here) or returns the stored one of that object. */
  async insertRemotePost(
    fields: Omit<RemotePostDoc, '_id'>,
  ): Promise<{ doc: RemotePostDoc; created: boolean }> {
    const stored = await this.remotePosts.findOne({ objectId: fields.objectId });
    if (stored) return { doc: stored, created: false };
    const doc = {
      _id: federation.REMOTE_ID_BASE + (await nextId(this.store, 'remoteposts')),
      ...fields,
    } as RemotePostDoc;
    try {
      await this.remotePosts.insertOne(doc);
      return { doc, created: true };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const again = await this.remotePosts.findOne({ objectId: fields.objectId });
      if (!again) throw err;
      return { doc: again, created: false };
    }
  }

  /** Writes a change of a remote post at the revision it was read at; false when another won. */
  async updateRemotePost(doc: RemotePostDoc, readRev: number): Promise<boolean> {
    const { _id, ...rest } = doc;
    return (await this.remotePosts.updateOne({ _id, rev: readRev }, { $set: rest })).matchedCount > 0;
  }

  interactionByKey(key: string): Promise<InteractionDoc | null> {
    return this.interactions.findOne({ key });
  }

  interactionsOfActor(actor: number): Promise<InteractionDoc[]> {
    return this.interactions.find({ actor, visible: true });
  }

  async insertInteraction(
    fields: Omit<InteractionDoc, '_id'>,
  ): Promise<{ doc: InteractionDoc; created: boolean }> {
    const stored = await this.interactions.findOne({ key: fields.key });
    if (stored) return { doc: stored, created: false };
    const doc = {
      _id: federation.REMOTE_ID_BASE + (await nextId(this.store, 'interactions')),
      ...fields,
    } as InteractionDoc;
    try {
      await this.interactions.insertOne(doc);
      return { doc, created: true };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const again = await this.interactions.findOne({ key: fields.key });
      if (!again) throw err;
      return { doc: again, created: false };
    }
  }

  async updateInteraction(doc: InteractionDoc, readRev: number): Promise<boolean> {
    const { _id, ...rest } = doc;
    return (await this.interactions.updateOne({ _id, rev: readRev }, { $set: rest })).matchedCount > 0;
  }

  // ---- the inbox log --------------------------------------------------------------------------------

  /** Records an inbound activity id; false when it was seen already. */
  async firstDelivery(activityId: string, type: string, actor: string, now: Date): Promise<boolean> {
    try {
      await this.inbox.insertOne({
        _id: hashed(activityId),
        activityId,
        type,
        actor,
        receivedAt: now,
        expiresAt: new Date(now.getTime() + INBOX_RETENTION_MS),
      });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** Forgets an inbound id whose processing failed, so the sender's retry is processed. */
  async forgetDelivery(activityId: string): Promise<void> {
    await this.inbox.deleteOne({ _id: hashed(activityId) });
  }

  // ---- outbound activities and their deliveries ---------------------------------------------------

  async keepActivity(id: string, signer: number, json: string, now: Date): Promise<void> {
    await this.activities.updateOne(
      { _id: id },
      {
        $setOnInsert: { signer, json, createdAt: now },
        $set: { expiresAt: new Date(now.getTime() + ACTIVITY_RETENTION_MS) },
      },
      { upsert: true },
    );
  }

  activityById(id: string): Promise<ActivityDoc | null> {
    return this.activities.findOne({ _id: id });
  }

  deliveryId(activityId: string, host: string): string {
    return `${hashed(activityId)} ${host}`;
  }

  /** The delivery record of (activity, host), made with its inboxes on first call. */
  async openDelivery(activityId: string, host: string, inboxes: string[], now: Date): Promise<DeliveryDoc> {
    const _id = this.deliveryId(activityId, host);
    const doc = await this.deliveries.findOneAndUpdate(
      { _id },
      {
        $setOnInsert: {
          activityId,
          host,
          inboxes,
          done: [],
          dropped: [],
          status: 'queued',
          updatedAt: now,
          expiresAt: new Date(now.getTime() + ACTIVITY_RETENTION_MS),
        },
      },
      { upsert: true, returnDocument: 'after' },
    );
    return doc!;
  }

  deliveryById(id: string): Promise<DeliveryDoc | null> {
    return this.deliveries.findOne({ _id: id });
  }

  async recordDeliveryProgress(
    id: string,
    outcome: { done: string[]; dropped: string[]; status: DeliveryDoc['status']; lastError?: string },
    now: Date,
  ): Promise<void> {
    await this.deliveries.updateOne(
      { _id: id },
      {
        $addToSet: { done: { $each: outcome.done }, dropped: { $each: outcome.dropped } },
        $set: {
          status: outcome.status,
          updatedAt: now,
          ...(outcome.lastError ? { lastError: outcome.lastError } : {}),
        },
        ...(outcome.lastError ? {} : { $unset: { lastError: '' } }),
      },
    );
  }

  deliveriesOf(activityId: string): Promise<DeliveryDoc[]> {
    return this.deliveries.find({ activityId });
  }
}
