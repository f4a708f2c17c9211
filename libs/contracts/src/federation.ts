// What the federation service (ActivityPub) answers and announces: accounts on other servers that local
// users follow or are followed by, their public posts for local timelines, and their replies, likes and
// boosts of local posts (shown where webmentions show). docs/api/federation.md describes the protocol side.
import { z } from 'zod';
import { defineEvent, defineRequest } from './bus.js';
import { userIdSchema } from './identity.js';
import { mentionSchema } from './publishing.js';

/**
 * Ids at or above this number name accounts and posts of other servers, given out by the federation
 * service (its own counters, offset by this base). Local user and post ids stay far below it, so
 * feeds keeps remote accounts beside users and remote posts beside posts without a second id space.
 */
export const REMOTE_ID_BASE = 2 ** 48;
export const remoteIdSchema = z.number().int().min(REMOTE_ID_BASE).max(Number.MAX_SAFE_INTEGER);

/** `name@host`, without a leading `@`: how people write a fediverse account (`@name@host`). */
export const HANDLE_PATTERN = /^@?([^@\s/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i;

export function isHandle(text: string): boolean {
  return HANDLE_PATTERN.test(text);
}

/** An account on another server as local views show it (a timeline item's author card). */
export const remoteAccountSchema = z.object({
  id: remoteIdSchema,
  /** `name@host`. */
  handle: z.string(),
  /** Display name, `""` when the account has none. */
  name: z.string(),
  /** The account's profile page (its `url`, else its actor id). */
  url: z.string(),
  /** Avatar URL, `""` when none. */
  photo: z.string(),
  /** The ActivityPub actor id. */
  actorId: z.string(),
});
export type RemoteAccount = z.infer<typeof remoteAccountSchema>;

/** A public post of another server's account, for the timelines of local followers and mentions. */
export const remotePostSchema = z.object({
  id: remoteIdSchema,
  author: remoteAccountSchema,
  /** The ActivityPub object id. */
  objectId: z.string(),
  /** Where people read it (the object's `url`, else its id). */
  url: z.string(),
  /** `""` unless the object has a `name`. */
  title: z.string(),
  /** Sanitised HTML. */
  contentHtml: z.string(),
  contentText: z.string(),
  /** Offset form. */
  publishedAt: z.string(),
  /** Absolute URLs of its image attachments. */
  photos: z.array(z.string()),
  /** Local users it mentions. */
  mentions: z.array(mentionSchema),
  /** The object it answers (a URL), null when it is no reply. */
  inReplyTo: z.string().nullable(),
  /**
   * A boost (`Announce`): `author` is the account that boosted (whom local users follow), the content
   * is the boosted post's, and this names the post and its own author. Absent for an ordinary post.
   */
  repostOf: z.object({ objectId: z.string(), url: z.string(), author: remoteAccountSchema }).optional(),
  /** Grows with every change (applyIfNewer). */
  revision: z.number().int().positive(),
});
export type RemotePost = z.infer<typeof remotePostSchema>;

/** A remote account's public post arrived (from an account a local user follows, or mentioning one). */
export const postReceived = defineEvent('federation', 'post', 'received', remotePostSchema);
/** A remote post was edited (`Update`). */
export const postUpdated = defineEvent('federation', 'post', 'updated', remotePostSchema);
/** A remote post was deleted (`Delete`, or its account was deleted); its last copy. */
export const postDeleted = defineEvent('federation', 'post', 'deleted', remotePostSchema);

export const INTERACTION_TYPES = ['reply', 'like', 'repost'] as const;
export const interactionTypeSchema = z.enum(INTERACTION_TYPES);
export type InteractionType = z.infer<typeof interactionTypeSchema>;

/**
 * A reply, like or boost (`repost`) of a local post by an account of another server: the same facts a
 * verified webmention carries, so it shows where webmentions show.
 */
export const interactionSchema = z.object({
  /** The federation service's id of the interaction (stable for its lifetime). */
  id: remoteIdSchema,
  type: interactionTypeSchema,
  /** The remote page of the interaction: the reply's URL, else the activity's id. */
  source: z.string(),
  /** The local post's permalink. */
  target: z.string(),
  targetUserId: userIdSchema,
  author: z.object({ name: z.string().optional(), url: z.string().optional(), photo: z.string().optional() }),
  /** Sanitised HTML (`""` for likes and boosts). */
  contentHtml: z.string(),
  contentText: z.string(),
  /** Offset form; null when the remote object does not say. */
  published: z.string().nullable(),
  /** When it arrived (offset form). */
  received: z.string(),
  revision: z.number().int().positive(),
});
export type Interaction = z.infer<typeof interactionSchema>;

/** A reply, like or boost of a local post arrived, or a reply was edited. */
export const interactionReceived = defineEvent('federation', 'interaction', 'received', interactionSchema);
/** It was undone or deleted (or its account was deleted): it leaves every view. */
export const interactionRemoved = defineEvent('federation', 'interaction', 'removed', interactionSchema);

const followerChange = z.object({
  userId: userIdSchema,
  username: z.string(),
  follower: remoteAccountSchema,
  /** Offset form. */
  at: z.string(),
});

/** An account of another server started following a local user (its `Follow` was accepted). */
export const followerAdded = defineEvent('federation', 'follower', 'added', followerChange);
/** It stopped (`Undo(Follow)`, or the account was deleted). */
export const followerRemoved = defineEvent('federation', 'follower', 'removed', followerChange);

/**
 * The account a handle (`@name@host`, `name@host`) or a URL names, looked up through WebFinger and the
 * actor document (safe fetcher) and remembered. 404 when it names no ActivityPub account; 403 while
 * federation is turned off.
 */
export const accountResolve = defineRequest(
  'federation',
  'account',
  'resolve',
  z.object({ target: z.string().min(1).max(2048) }),
  z.object({ account: remoteAccountSchema }),
);
