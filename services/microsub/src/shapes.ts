// Response shapes of /microsub, written once (docs/api/microsub.md). Objects are strict so the union
// of an action's possible answers matches exactly one of them.
import { z } from 'zod';

export const cardSchema = z.strictObject({
  type: z.literal('card'),
  name: z.string(),
  url: z.string(),
  photo: z.string(),
});

export const entrySchema = z.strictObject({
  type: z.literal('entry'),
  _id: z.string(),
  published: z.string(),
  url: z.string(),
  name: z.string().optional(),
  content: z.strictObject({ html: z.string(), text: z.string() }),
  photo: z.array(z.string()).optional(),
  author: cardSchema,
  /** A boost: the boosted post's URL (jf2), described in `refs` with its own author. */
  'repost-of': z.array(z.string()).optional(),
  refs: z
    .record(z.string(), z.strictObject({ type: z.literal('entry'), url: z.string(), author: cardSchema }))
    .optional(),
  _is_read: z.boolean().optional(),
});

export const timelineSchema = z.strictObject({
  items: z.array(entrySchema),
  paging: z.strictObject({ before: z.string().optional(), after: z.string().optional() }),
});

export const channelsSchema = z.strictObject({
  channels: z.array(
    z.strictObject({ uid: z.string(), name: z.string(), unread: z.number().int().optional() }),
  ),
});

/** A channel created or renamed. */
export const channelSchema = z.strictObject({ uid: z.string(), name: z.string() });

/** A channel deleted. */
export const deletedSchema = z.strictObject({ deleted: z.literal(true) });

export const feedSchema = z.strictObject({
  type: z.literal('feed'),
  url: z.string(),
  name: z.string(),
  photo: z.string().optional(),
});

export const followListSchema = z.strictObject({ items: z.array(feedSchema) });

export const searchSchema = z.strictObject({ results: z.array(feedSchema) });

export const previewSchema = z.strictObject({ items: z.array(entrySchema) });

export const emptySchema = z.strictObject({});

/** Every answer of GET and POST /microsub. */
export const microsubResponseSchema = z.union([
  timelineSchema,
  channelsSchema,
  channelSchema,
  deletedSchema,
  followListSchema,
  searchSchema,
  previewSchema,
  emptySchema,
]);
