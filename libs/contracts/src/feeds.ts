// What the feeds service answers and announces: the follow graph (for the Microsub adapter and push)
// and timelines in the shape Microsub serves, plus article extraction for the reader.
import { z } from 'zod';
import { defineEvent, defineRequest } from './bus.js';
import { userIdSchema } from './identity.js';

/** A user as a follow list or a timeline item shows them. */
export const cardSchema = z.object({
  userId: userIdSchema,
  username: z.string(),
  name: z.string(),
  /** Profile URL (the user's `me`: default site URL, or `{PUBLIC_URL}/{username}/`). */
  url: z.string(),
  /** Avatar URL, `""` when none. */
  photo: z.string(),
});
export type Card = z.infer<typeof cardSchema>;

/** Someone started following someone (push uses it for "new follower"). Not sent for a repeated follow. */
export const followCreated = defineEvent(
  'feeds',
  'follow',
  'created',
  z.object({
    followerId: userIdSchema,
    followerUsername: z.string(),
    followeeId: userIdSchema,
    followeeUsername: z.string(),
    /** Offset form. */
    createdAt: z.string(),
  }),
);

/**
 * Someone stopped following someone (federation sends the remote account an `Undo(Follow)`). Not sent
 * for an unfollow of someone not followed.
 */
export const followDeleted = defineEvent(
  'feeds',
  'follow',
  'deleted',
  z.object({
    followerId: userIdSchema,
    followerUsername: z.string(),
    followeeId: userIdSchema,
    followeeUsername: z.string(),
    /** Offset form. */
    deletedAt: z.string(),
  }),
);

export const TIMELINE_KINDS = ['default', 'mentions', 'discover'] as const;
export const timelineKindSchema = z.enum(TIMELINE_KINDS);
export type TimelineKind = z.infer<typeof timelineKindSchema>;

export const timelineItemSchema = z.object({
  /** The post id as a string (Microsub `_id`). */
  id: z.string(),
  postId: z.number().int().positive(),
  url: z.string(),
  /** `""` when the post has no title. */
  title: z.string(),
  contentHtml: z.string(),
  contentText: z.string(),
  /** Offset form. */
  publishedAt: z.string(),
  photos: z.array(z.string()),
  author: cardSchema,
  /**
   * A boost by `author` (an account of another server the user follows) of someone else's post: that
   * post's URL and its author's card. Absent otherwise.
   */
  repostOf: z
    .object({
      url: z.string(),
      author: z.object({ username: z.string(), name: z.string(), url: z.string(), photo: z.string() }),
    })
    .optional(),
});
export type TimelineItem = z.infer<typeof timelineItemSchema>;

/**
 * A Microsub channel (an opaque name of at most 64 characters) a follow is made into. `default`
 * stands for no channel: a follow made anywhere else (the web, the feeds API) is in no channel.
 */
export const followChannelSchema = z.string().min(1).max(64);

/**
 * Narrows the `default` timeline to a Microsub channel: `default` → the user's own posts and those of
 * the follows in no channel; any other channel → the posts of the follows made into it (none of the
 * user's own). Absent → own posts and every follow (the public timeline). Refused (400) with another kind.
 */
const timelineChannel = followChannelSchema.optional();

/**
 * A page of a user's timeline (`default`: own posts and those of followed users, narrowed by
 * `channel`; `mentions`: posts mentioning the user; `discover`: every public post of the service),
 * newest first. Cursors are opaque: `before` pages to older items, `after` to newer ones. An unknown
 * user → 404; a malformed cursor → 400.
 */
export const timelineGet = defineRequest(
  'feeds',
  'timeline',
  'get',
  z.object({
    userId: userIdSchema,
    kind: timelineKindSchema,
    channel: timelineChannel,
    before: z.string().max(200).optional(),
    after: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  z.object({
    items: z.array(timelineItemSchema),
    /** Cursor for the next older page; absent at the end. */
    before: z.string().optional(),
    /** Cursor for items newer than this page; absent when the page is empty. */
    after: z.string().optional(),
  }),
);

/** A place in a timeline in feeds' own order: publication time in milliseconds, then post id. */
export const timelinePositionSchema = z.object({
  ms: z.number().int(),
  id: z.number().int().min(0),
});

/**
 * Where the items of a user's timeline are, newest first, without the posts themselves (no bodies,
 * no authors): what counting unread items or finding an item needs. `since` keeps only items newer
 * than it (exclusive); `before` is a cursor of `timelineGet` or of this request. The answer holds the
 * newest `limit` items in that range and, when more remain in it, a `before` cursor for the rest
 * (usable with `timelineGet` too). Each item's `publishedAt` is what `timelineGet` gives for it.
 * An unknown user → 404; a malformed cursor → 400.
 */
export const timelinePositions = defineRequest(
  'feeds',
  'timeline',
  'positions',
  z.object({
    userId: userIdSchema,
    kind: timelineKindSchema,
    channel: timelineChannel,
    before: z.string().max(200).optional(),
    since: timelinePositionSchema.optional(),
    limit: z.number().int().min(1).max(5000).default(1000),
  }),
  z.object({
    items: z.array(z.object({ id: z.string(), publishedAt: z.string() })),
    /** Cursor for the next older items within `since`; absent when there are none. */
    before: z.string().optional(),
  }),
);

/** Whom to follow: a username, or a profile URL (`me`) of a user of this service. */
const followTargetSchema = z.union([
  z.object({ userId: userIdSchema, username: z.string().min(1).max(64) }),
  z.object({ userId: userIdSchema, url: z.string().min(1).max(2048) }),
]);

/**
 * Follow (idempotent). Unknown target → 404; self → 400. Answers the followed user's card. `channel`:
 * the Microsub channel the follow goes into — a follow already made moves there (announced once, when
 * made); without it a new follow is in no channel and one already made stays where it is.
 */
export const followCreate = defineRequest(
  'feeds',
  'follow',
  'create',
  z.union([
    z.object({
      userId: userIdSchema,
      username: z.string().min(1).max(64),
      channel: followChannelSchema.optional(),
    }),
    z.object({
      userId: userIdSchema,
      url: z.string().min(1).max(2048),
      channel: followChannelSchema.optional(),
    }),
  ]),
  z.object({ following: cardSchema }),
);

/** Unfollow (idempotent). Unknown target → 404. */
export const followDelete = defineRequest(
  'feeds',
  'follow',
  'delete',
  followTargetSchema,
  z.object({ unfollowed: cardSchema }),
);

/** Everyone `userId` follows, by username, with the channel each follow is in (absent: none). */
export const followingList = defineRequest(
  'feeds',
  'following',
  'list',
  z.object({ userId: userIdSchema }),
  z.object({ items: z.array(cardSchema.extend({ channel: followChannelSchema.optional() })) }),
);

/** Ends every follow of `userId` made into `channel` (a Microsub channel being deleted). */
export const channelUnfollow = defineRequest(
  'feeds',
  'channel',
  'unfollow',
  z.object({ userId: userIdSchema, channel: followChannelSchema }),
  z.object({ unfollowed: z.number().int().min(0) }),
);

/**
 * Fetch a page (safe fetcher) and extract its article (Readability), sanitised. `found: false` when
 * the page cannot be fetched or has no readable article.
 */
export const articleExtract = defineRequest(
  'feeds',
  'article',
  'extract',
  z.object({ url: z.string().min(1).max(2048) }),
  z.discriminatedUnion('found', [
    z.object({
      found: z.literal(true),
      url: z.string(),
      title: z.string(),
      contentHtml: z.string(),
      excerpt: z.string(),
    }),
    z.object({ found: z.literal(false), reason: z.string() }),
  ]),
);
