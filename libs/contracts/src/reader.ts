// What the reader answers on the bus.
import { z } from 'zod';
import { defineRequest } from './bus.js';

/**
 * Whether recaps use the operator-configured summariser (READER_LLM_URL). Identity asks it to fill
 * the account's `is_using_ai`; no answer (reader absent or slow) means false.
 */
export const recapCapabilities = defineRequest(
  'reader',
  'recap',
  'capabilities',
  z.object({}),
  z.object({ usingAi: z.boolean() }),
);

// ---- Microsub follows of the open web (the microsub service asks; docs/api/microsub.md) ----------

const webFeedSchema = z.object({
  /** The feed's URL (RSS, Atom or JSON Feed). */
  url: z.string(),
  /** The subscription's title, else the feed's, else its host. */
  title: z.string(),
  /** The site the feed belongs to, `""` when unknown. */
  siteUrl: z.string(),
});
export type WebFeed = z.infer<typeof webFeedSchema>;

/**
 * Subscribe `userId` to the feed at `url` (a feed, or a page that links one; the first of several)
 * through the reader's discovery and fetching. `found: false` when the URL has no feed.
 */
export const webFollowCreate = defineRequest(
  'reader',
  'webfollow',
  'create',
  z.object({ userId: z.number().int().positive(), url: z.string().min(1).max(2048) }),
  z.discriminatedUnion('found', [
    z.object({ found: z.literal(true), feed: webFeedSchema }),
    z.object({ found: z.literal(false) }),
  ]),
);

/** Unsubscribe from the feed whose feed URL or site URL is `url`; `known: false` when none is subscribed. */
export const webFollowDelete = defineRequest(
  'reader',
  'webfollow',
  'delete',
  z.object({ userId: z.number().int().positive(), url: z.string().min(1).max(2048) }),
  z.object({ known: z.boolean() }),
);

/** Every feed `userId` is subscribed to in the reader. */
export const webFollowList = defineRequest(
  'reader',
  'webfollow',
  'list',
  z.object({ userId: z.number().int().positive() }),
  z.object({ items: z.array(webFeedSchema) }),
);

export const webEntrySchema = z.object({
  entryId: z.number().int().positive(),
  url: z.string(),
  /** `""` without a title. */
  title: z.string(),
  contentHtml: z.string(),
  contentText: z.string(),
  /** Offset form (whole seconds): the order is by this, then by `entryId`, both descending. */
  publishedAt: z.string(),
  author: z.object({ name: z.string(), url: z.string(), photo: z.string() }),
});
export type WebEntry = z.infer<typeof webEntrySchema>;

/**
 * Entries of the feeds `userId` is subscribed to, newest first (published second, then entry id,
 * descending), strictly older than `before` when given.
 */
export const webEntriesList = defineRequest(
  'reader',
  'webfollow',
  'entries',
  z.object({
    userId: z.number().int().positive(),
    limit: z.number().int().min(1).max(100),
    before: z.object({ ms: z.number().int(), entryId: z.number().int() }).optional(),
  }),
  z.object({ items: z.array(webEntrySchema) }),
);
