// The documents of the reader's collections (store/index.ts has their indexes). Shaped for the embedded store (SQLite) as much
// as for MongoDB: no query scans all entries; per-user reading state is one document; the entry ids of
// a feed are one document, so a user's timeline is built from a few hundred reads, not 100,000.
//
// Indexes here start with a field of high cardinality wherever documents are updated often: an
// update rewrites the document's key in every index, and a low-cardinality first field makes a
// range of equal keys that every such query has to walk.

export interface JsonFeedMeta {
  favicon: string | null;
  icon: string | null;
  feed_url: string | null;
  home_page_url: string | null;
  title: string | null;
  version: string;
}

export interface FeedDoc {
  [key: string]: unknown;
  _id: number;
  /** Normalised feed URL; one feed record per URL, shared by all subscribers. */
  url: string;
  siteUrl: string | null;
  /** `host[:port]` of the site, the key of its icon. */
  siteHost: string;
  title: string | null;
  format: 'rss' | 'atom' | 'json';
  jsonFeed: JsonFeedMeta | null;
  etag: string | null;
  lastModified: string | null;
  subscriberCount: number;
  intervalMinutes: number;
  nextCheckAt: Date;
  lastCheckedAt: Date | null;
  lastError: string | null;
  errorCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The entries of one feed in arrival order (ascending `createdAt`): what timelines are merged from. */
export interface FeedTimelineDoc {
  [key: string]: unknown;
  _id: number;
  ids: number[];
  /** `createdAt` in microseconds, parallel to `ids`. */
  times: number[];
}

/**
 * Hashes of the keys of a feed's entries deleted by retention (newest last, capped): an item the
 * feed still lists is not stored again as a new entry. Apart from timelines, which views read whole.
 */
export interface PrunedKeysDoc {
  [key: string]: unknown;
  _id: number;
  keys: string[];
}

export interface EnclosureDoc {
  url: string;
  type: string;
  length: string;
  duration: string;
}

export interface EntryJsonFeed {
  id: string;
  image: string | null;
  banner_image: string | null;
  author: Record<string, string> | null;
  authors: Record<string, string>[] | null;
  external_url: string | null;
}

export interface EntryDoc {
  [key: string]: unknown;
  _id: number;
  feedId: number;
  /** Identity inside the feed: `g:` guid, `l:` normalised link or `h:` content hash. */
  key: string;
  title: string | null;
  url: string | null;
  author: string | null;
  content: string | null;
  summary: string;
  /** Microseconds. */
  published: number;
  /** Microseconds; from the process clock that also writes `Date`. */
  createdAt: number;
  updatedAt: Date;
  enclosure: EnclosureDoc | null;
  jsonFeed: EntryJsonFeed | null;
  /** Hash of what a client sees; a re-seen entry is rewritten only when it changes. */
  hash: string;
  /**
   * Digest of the parsed item it was derived from (feeds/entries.ts): a re-seen item with the same
   * one is not sanitised again. Missing in entries stored before it existed.
   */
  sourceHash?: string;
  /** Users who starred it: retention never deletes a starred entry. */
  stars: number;
}

export interface StarredRef {
  entryId: number;
  feedId: number;
  createdAt: number;
}

/**
 * Everything a user's views depend on is versioned here: every change to the user's subscriptions,
 * taggings or sets (and every new entry of a subscribed feed) increments `version` after writing.
 */
/** The lists that announce their own `Last-Modified` (see domain/states.ts, listChangedAt). */
export const LISTS = ['subscriptions', 'taggings', 'unread', 'starred'] as const;
export type ListName = (typeof LISTS)[number];

export interface UserStateDoc {
  [key: string]: unknown;
  _id: number;
  version: number;
  /** The last change of anything the user's views show. */
  updatedAt: Date;
  /** The last change of each list (`<list>ChangedAt`); absent until its first change. */
  subscriptionsChangedAt?: Date;
  taggingsChangedAt?: Date;
  unreadChangedAt?: Date;
  starredChangedAt?: Date;
  /**
   * Since when the list times above are kept (the document's first write that kept them): a list
   * without a time has not changed since. Absent in documents not written since then.
   */
  listsTrackedSince?: Date;
  /** Unread entry ids, comma-separated (see domain/states.ts for why a string). */
  unread: string;
  /** Ids of new entries of subscribed feeds, unread too, not yet folded into `unread`. */
  arrived: number[];
  /**
   * How many ids were pushed to `arrived` since it was last folded (absent in documents written
   * before it was kept): a long `arrived` is folded into `unread` (domain/states.ts).
   */
  arrivedCount?: number;
  starred: StarredRef[];
}

export interface SubscriptionDoc {
  [key: string]: unknown;
  _id: number;
  userId: number;
  feedId: number;
  /** The user's own title; null → the feed's. */
  title: string | null;
  /** Microseconds. */
  createdAt: number;
  updatedAt: Date;
}

export interface TaggingDoc {
  [key: string]: unknown;
  _id: number;
  userId: number;
  feedId: number;
  name: string;
}

export interface TagDoc {
  [key: string]: unknown;
  _id: number;
  userId: number;
  name: string;
}

export interface IconDoc {
  [key: string]: unknown;
  _id: string;
  url: string | null;
  checkedAt: Date;
}

export interface HighlightDoc {
  [key: string]: unknown;
  _id: number;
  userId: number;
  entryId: number;
  text: string;
  start: number | null;
  end: number | null;
  createdAt: Date;
  /** Copied so highlights survive unsubscribing and retention. */
  entryTitle: string | null;
  entryUrl: string | null;
}

export interface RecapDoc {
  [key: string]: unknown;
  /** `<userId>:<sha256 of the sorted visible ids>` */
  _id: string;
  userId: number;
  ids: number[];
  status: 'building' | 'ready';
  html: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Day = (typeof DAYS)[number];

export interface RecapSettingsDoc {
  [key: string]: unknown;
  _id: number;
  dayofweek: Day | '';
  /** `YYYY-MM-DD` (UTC) of the last weekly email. */
  lastSentOn: string | null;
}

export interface ImportItemDoc {
  title: string;
  feed_url: string;
  status: 'pending' | 'complete' | 'failed';
  tags: string[];
}

export interface ImportDoc {
  [key: string]: unknown;
  _id: number;
  userId: number;
  createdAt: number;
  complete: boolean;
  items: ImportItemDoc[];
}

/** Markers of periodic work (retention, icon refresh), shared by replicas. */
export interface ScheduleDoc {
  [key: string]: unknown;
  _id: string;
  lastRunAt: Date;
}

/** The key that signs `extracted_content_url`s: one per installation, created on first start. */
export interface SettingDoc {
  [key: string]: unknown;
  _id: string;
  value: string;
}

/**
 * An entry's extracted article (docs/api/reader.md "Extracted content"), or why there is none, kept
 * until `expiresAt` so a client opening an entry twice costs one page fetch.
 */
export interface ExtractDoc {
  [key: string]: unknown;
  _id: number;
  found: boolean;
  title: string;
  contentHtml: string;
  excerpt: string;
  url: string;
  reason: string;
  extractedAt: Date;
  expiresAt: Date;
}

/**
 * One WebSub subscription of the reader at a hub (docs/adr/0024-websub-subscriptions-in-the-reader.md):
 * for one feed, shared by all its subscribers. `_id` is the unguessable token of its callback URL.
 * A feed has at most one that is not `unsubscribing`; old ones wait for the hub to confirm their end.
 */
export interface WebSubDoc {
  [key: string]: unknown;
  _id: string;
  feedId: number;
  hub: string;
  topic: string;
  /** The hub.secret sent with the request: deliveries must be signed with it. */
  secret: string;
  /**
   * `subscribing`: asked, not yet verified; `subscribed`: verified, lease running; `denied`: the hub
   * refused (polling goes on); `unsubscribing`: asked to end, waiting for the hub's verification.
   */
  state: 'subscribing' | 'subscribed' | 'denied' | 'unsubscribing';
  /** The request whose intent verification we expect (set before the request is sent), or null. */
  pending: 'subscribe' | 'unsubscribe' | null;
  leaseSeconds: number | null;
  expiresAt: Date | null;
  /** When the scheduler next queues work for it (renewal, a retry); null: nothing to do. */
  renewAt: Date | null;
  /** Failed unsubscribe requests so far (the record goes after a few). */
  attempts: number;
  lastError: string | null;
  lastDeliveryAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
