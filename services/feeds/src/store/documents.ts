// The documents of the feeds service's own collections (store/index.ts has the queries and indexes).
// Copies of users, sites and posts come from other services' events; follows, bookmarks, read-later
// articles, queue tokens and the blogroll opt-in are owned here. Copies carry `rev` (the event's time
// and kind, see domain/revisions.ts) so an older event never overwrites a newer copy.

export interface UserDoc {
  _id: number;
  username: string;
  /** Lower-case username: profile paths are case-insensitive. */
  usernameKey: string;
  name: string;
  avatar: string;
  rev: number;
  /** Last follow or unfollow by this user: validates cached following lists and feed validators. */
  graphChangedAt?: Date;
  /** Incremented by every follow or unfollow of this user (cache key of the following list). */
  graphVersion?: number;
  /** Last change to this user's bookmarks, read-later queue or queue token (private feed validator). */
  queueChangedAt?: Date;
  /** An account of another server (domain/remote.ts): its profile URL, kept with its handle as username. */
  url?: string;
  remote?: boolean;
  [key: string]: unknown;
}

export interface SiteDoc {
  _id: number;
  userId: number;
  username: string;
  url: string;
  isDefault: boolean;
  title: string;
  description: string;
  rev: number;
  [key: string]: unknown;
}

export interface PostDoc {
  _id: number;
  userId: number;
  siteId: number;
  url: string;
  title: string;
  contentHtml: string;
  contentText: string;
  publishedAt: Date;
  photos: string[];
  mentionIds: number[];
  categories: string[];
  /** False once the post stopped being public: the tombstone keeps its revision. */
  visible: boolean;
  /** A post of another server's account (domain/remote.ts): never in the service-wide photos feed. */
  remote?: boolean;
  /** A boost (domain/remote.ts): the boosted post and its author's card; the booster is `userId`. */
  repostOf?: RepostOf;
  rev: number;
  [key: string]: unknown;
}

export interface RepostOf {
  url: string;
  author: { username: string; name: string; url: string; photo: string };
}

/** A follow as timelines need it: whom, and the Microsub channel it is in (undefined: none). */
export interface Followee {
  id: number;
  channel?: string;
}

export interface FollowDoc {
  _id?: string;
  followerId: number;
  followeeId: number;
  createdAt: Date;
  /** The Microsub channel the follow was made into; absent: none (the default channel). */
  channel?: string;
  [key: string]: unknown;
}

export interface WebmentionDoc {
  _id: number;
  targetUserId: number | null;
  source: string;
  target: string;
  type: string;
  author: { name?: string; url?: string; photo?: string };
  contentHtml: string;
  contentText: string;
  published: string | null;
  received: Date;
  visible: boolean;
  rev: number;
  [key: string]: unknown;
}

export type BookmarkType = 'bookmark' | 'archived';
export type FetchStatus = 'pending' | 'ready' | 'failed';

export interface BookmarkDoc {
  _id: number;
  userId: number;
  type: BookmarkType;
  url: string;
  /** Unique: `{userId} {type} {url}` — the same link is bookmarked once. */
  key: string;
  title: string;
  /** Site or author name shown as the item's author, `""` when unknown. */
  authorName: string;
  /** The archived article, or `""`. */
  contentHtml: string;
  summary: string;
  status: FetchStatus;
  /** Set when the link is a podcast episode: such bookmarks only show in the listen-later feed. */
  audio: { url: string; mimeType: string } | null;
  /** Bookmark (or archive) time: the feeds' order. */
  createdAt: Date;
  [key: string]: unknown;
}

export interface ReadLaterDoc {
  _id: number;
  userId: number;
  url: string;
  title: string;
  contentHtml: string;
  excerpt: string;
  status: FetchStatus;
  savedAt: Date;
  archivedAt: Date | null;
  [key: string]: unknown;
}

export interface QueueTokenDoc {
  _id: number;
  token: string;
  createdAt: Date;
  [key: string]: unknown;
}

export interface BlogrollDoc {
  _id: number;
  categories: string[];
  addedAt: Date;
  [key: string]: unknown;
}
