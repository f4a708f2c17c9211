// What the webmention service announces once a received mention has been verified (or has gone away
// upstream). Feeds keeps its webmentions feeds from these; the webmention service resolves the target
// to the user whose site it is before publishing.
import { z } from 'zod';
import { defineEvent } from './bus.js';
import { userIdSchema } from './identity.js';

export const MENTION_TYPES = ['reply', 'like', 'repost', 'bookmark', 'mention'] as const;
export const mentionTypeSchema = z.enum(MENTION_TYPES);
export type MentionType = z.infer<typeof mentionTypeSchema>;

/** The source's author as its h-card gives it; every member may be missing. */
export const mentionAuthorSchema = z.object({
  name: z.string().optional(),
  url: z.string().optional(),
  photo: z.string().optional(),
});
export type MentionAuthor = z.infer<typeof mentionAuthorSchema>;

export const verifiedMentionSchema = z.object({
  /** The webmention id (`wm-id`), stable across re-verifications of the same source and target. */
  id: z.number().int().positive(),
  /** Absolute URL of the page that links to the target. */
  source: z.string(),
  /** Absolute URL on one of our sites. */
  target: z.string(),
  /** Owner of the site the target belongs to; null when no user owns it (kept for completeness). */
  targetUserId: userIdSchema.nullable(),
  type: mentionTypeSchema,
  author: mentionAuthorSchema,
  /** Sanitised HTML of the source's content (may be `""`). */
  contentHtml: z.string(),
  contentText: z.string(),
  /** When the source says it was published (offset form), null when it does not say. */
  published: z.string().nullable(),
  /** When we received the mention (offset form). */
  received: z.string(),
  /** True on the first verification, false when an already known mention was verified again. */
  isNew: z.boolean(),
});
export type VerifiedMention = z.infer<typeof verifiedMentionSchema>;

/** A mention was verified (first time or again after the source changed). */
export const mentionVerified = defineEvent('webmention', 'mention', 'verified', verifiedMentionSchema);

/** A mention's source no longer links to the target (or is gone): it leaves every view. */
export const mentionDeleted = defineEvent(
  'webmention',
  'mention',
  'deleted',
  z.object({
    id: z.number().int().positive(),
    source: z.string(),
    target: z.string(),
    targetUserId: userIdSchema.nullable(),
  }),
);
