// Response shapes of the feeds service, written once. JSON Feed members are declared in the order the
// format puts them (docs/api/conventions.md "JSON Feed"); zod keeps that order in its output and
// strips anything not declared, so no key outside JSON Feed and `_service` can leak into a feed.
import { z } from 'zod';

export const feedAuthorSchema = z.object({
  name: z.string().optional(),
  url: z.string().optional(),
  avatar: z.string().optional(),
});

export const attachmentSchema = z.object({
  url: z.string(),
  mime_type: z.string(),
});

export const feedItemSchema = z.object({
  id: z.string(),
  url: z.string().optional(),
  title: z.string().optional(),
  content_html: z.string(),
  content_text: z.string().optional(),
  summary: z.string().optional(),
  image: z.string().optional(),
  date_published: z.string().optional(),
  date_modified: z.string().optional(),
  authors: z.array(feedAuthorSchema).optional(),
  author: feedAuthorSchema.optional(),
  attachments: z.array(attachmentSchema).optional(),
  _service: z.record(z.string(), z.unknown()).optional(),
});

export const jsonFeedSchema = z.object({
  version: z.enum(['https://jsonfeed.org/version/1.1', 'https://jsonfeed.org/version/1']),
  title: z.string(),
  home_page_url: z.string().optional(),
  feed_url: z.string().optional(),
  /** The WebSub hub of a public feed (docs/api/websub.md, "Discovery"). */
  hubs: z.array(z.object({ type: z.string(), url: z.string() })).optional(),
  description: z.string().optional(),
  next_url: z.string().optional(),
  items: z.array(feedItemSchema),
});

export type JsonFeed = z.input<typeof jsonFeedSchema>;
export type FeedItem = z.input<typeof feedItemSchema>;
export type FeedAuthor = z.input<typeof feedAuthorSchema>;

export const emptySchema = z.object({});

export const savedSchema = z.object({ id: z.string(), url: z.string() });

export const queueTokenSchema = z.object({
  token: z.string(),
  bookmarks_url: z.string(),
  readlater_url: z.string(),
});

export const followingSchema = z.array(
  z.object({
    name: z.string(),
    url: z.string(),
    avatar: z.string(),
    username: z.string(),
    is_following: z.boolean(),
    is_you: z.boolean(),
  }),
);

export const blogrollEntrySchema = z.object({ username: z.string(), categories: z.array(z.string()) });
