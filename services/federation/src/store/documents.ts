// The documents of the federation service's own collections (store/index.ts has the queries and
// indexes). Local users and posts are copies from identity's and publishing's events; everything
// about other servers (actors, followers, following, their posts and interactions, the inbox log and
// the deliveries) is owned here.

/** One RSA key pair per local user (`_id` = user id), and the instance actor's (`_id` 0). */
export interface KeyDoc {
  _id: number;
  publicKeyPem: string;
  privateKeyPem: string;
  createdAt: Date;
  [key: string]: unknown;
}

/** Copy of a local user (identity's events; asked for on demand). */
export interface UserDoc {
  _id: number;
  username: string;
  usernameKey: string;
  name: string;
  avatar: string;
  bio: string;
  createdAt: string;
  rev: number;
  [key: string]: unknown;
}

/** Copy of a local public post (publishing's events); `visible: false` is the tombstone. */
export interface PostDoc {
  _id: number;
  userId: number;
  url: string;
  title: string;
  contentHtml: string;
  contentText: string;
  publishedAt: Date;
  /** Set by the first edit. */
  editedAt?: Date;
  photos: string[];
  mentions: { userId: number; username: string }[];
  visible: boolean;
  rev: number;
  [key: string]: unknown;
}

/** An actor of another server, as its actor document said when last fetched. */
export interface ActorDoc {
  /** ≥ REMOTE_ID_BASE (libs/contracts federation.ts). */
  _id: number;
  /** The actor id (URL); unique. */
  actorId: string;
  /** `name@host`, lower-cased; set once WebFinger or the actor's preferredUsername gave it. */
  handle: string;
  name: string;
  /** Profile page (`url`, else the id). */
  url: string;
  icon: string;
  inbox: string;
  sharedInbox?: string;
  keyId: string;
  publicKeyPem: string;
  fetchedAt: Date;
  /** The account was deleted on its server (Delete of the actor). */
  deleted?: boolean;
  [key: string]: unknown;
}

/** A remote actor following a local user. `_id` = `{userId} {actor}`. */
export interface FollowerDoc {
  _id: string;
  userId: number;
  actor: number;
  /** The id of their Follow activity (what our Accept names). */
  followId: string;
  createdAt: Date;
  [key: string]: unknown;
}

/** A local user following a remote actor. `_id` = `{userId} {actor}`. */
export interface FollowingDoc {
  _id: string;
  userId: number;
  actor: number;
  /** The id of our Follow activity. */
  followId: string;
  state: 'pending' | 'accepted';
  createdAt: Date;
  [key: string]: unknown;
}

/** A public post of a remote actor that some local user follows or that mentions a local user. */
export interface RemotePostDoc {
  _id: number;
  objectId: string;
  actor: number;
  url: string;
  title: string;
  contentHtml: string;
  contentText: string;
  publishedAt: Date;
  photos: string[];
  mentions: { userId: number; username: string }[];
  inReplyTo: string | null;
  /** A boost by `actor`: `objectId` is the Announce's id; this names the boosted post and its author. */
  repostOf?: { objectId: string; url: string; author: number };
  visible: boolean;
  rev: number;
  [key: string]: unknown;
}

/** A reply, like or boost of a local post. `key` = the activity's (like, boost) or object's (reply) id. */
export interface InteractionDoc {
  _id: number;
  key: string;
  type: 'reply' | 'like' | 'repost';
  actor: number;
  postId: number;
  targetUserId: number;
  source: string;
  contentHtml: string;
  contentText: string;
  published: Date | null;
  received: Date;
  visible: boolean;
  rev: number;
  [key: string]: unknown;
}

/** One accepted inbound activity (by its id): a redelivery is answered without doing it twice. */
export interface InboxDoc {
  _id: string;
  activityId: string;
  type: string;
  actor: string;
  receivedAt: Date;
  expiresAt: Date;
  [key: string]: unknown;
}

/** An activity we send, signed by `signer` (a user id, 0 = the instance actor), kept while delivered. */
export interface ActivityDoc {
  _id: string;
  signer: number;
  json: string;
  createdAt: Date;
  expiresAt: Date;
  [key: string]: unknown;
}

/** One activity's delivery to one host: which inboxes have it, which were dropped. */
export interface DeliveryDoc {
  _id: string;
  activityId: string;
  host: string;
  inboxes: string[];
  done: string[];
  dropped: string[];
  status: 'queued' | 'delivered' | 'retrying' | 'failed';
  lastError?: string;
  updatedAt: Date;
  expiresAt: Date;
  [key: string]: unknown;
}
