// Response shapes of the reader's JSON endpoints. The platform parses every result through these
// (unknown keys dropped, key order as written here, a mismatch is a logged 500).
import { z } from 'zod';

const readerTime = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

const enclosure = z.object({
  enclosure_url: z.string(),
  enclosure_type: z.string(),
  enclosure_length: z.string(),
  itunes_duration: z.string(),
});

const author = z.object({ name: z.string(), url: z.string(), avatar: z.string() }).partial();

export const entrySchema = z.object({
  id: z.number().int(),
  feed_id: z.number().int(),
  title: z.string().nullable(),
  url: z.string().nullable(),
  extracted_content_url: z.string().nullable(),
  author: z.string().nullable(),
  content: z.string().nullable(),
  summary: z.string(),
  published: readerTime,
  created_at: readerTime,
  original: z.null().optional(),
  images: z.null().optional(),
  enclosure: enclosure.nullable().optional(),
  extracted_articles: z.array(z.never()).optional(),
  json_feed: z
    .object({
      id: z.string(),
      image: z.string(),
      banner_image: z.string(),
      author,
      authors: z.array(author),
      external_url: z.string(),
    })
    .partial()
    .nullable()
    .optional(),
});

export const entriesSchema = z.array(entrySchema);
/**
 * Lists of entry ids (`unread_entries.json`, `starred_entries.json`), checked with one loop: zod's
 * per-element parse of a user's 30,000 unread ids was a fifth of the request's server time (issue 38).
 */
export const idsSchema = z.custom<number[]>(
  (value) => Array.isArray(value) && value.every((id) => Number.isSafeInteger(id)),
  'expected an array of integer ids',
);

export const subscriptionSchema = z.object({
  id: z.number().int(),
  created_at: readerTime,
  feed_id: z.number().int(),
  title: z.string(),
  feed_url: z.string(),
  site_url: z.string(),
  json_feed: z
    .object({
      favicon: z.string().nullable(),
      icon: z.string().nullable(),
      feed_url: z.string().nullable(),
      home_page_url: z.string().nullable(),
      title: z.string().nullable(),
      version: z.string(),
    })
    .nullable()
    .optional(),
  last_error: z.string().nullable().optional(),
  last_checked_at: readerTime.nullable().optional(),
  next_check_at: readerTime.optional(),
});

/** A Feedbin-shaped error body a route returns itself (the platform renders thrown errors alike). */
export const feedbinErrorSchema = z.object({
  status: z.number().int(),
  message: z.string().nullable(),
  errors: z.array(z.record(z.string(), z.string())),
});

export const choicesSchema = z.array(
  z.object({ feed_url: z.string(), title: z.string(), is_json_feed: z.boolean() }),
);

export const iconSchema = z.object({ host: z.string(), url: z.string() });
export const taggingSchema = z.object({ id: z.number().int(), feed_id: z.number().int(), name: z.string() });
export const tagSchema = z.object({ id: z.number().int(), name: z.string() });

export const importSchema = z.object({
  id: z.number().int(),
  complete: z.boolean(),
  created_at: readerTime,
  import_items: z.array(
    z.object({ title: z.string(), feed_url: z.string(), status: z.enum(['pending', 'complete', 'failed']) }),
  ),
});

export const highlightCreatedSchema = z.object({ id: z.number().int(), count: z.number().int() });
export const emptySchema = z.object({}).strict();
export const recapEmailSchema = z.object({ dayofweek: z.string() });

const highlightItem = z.object({
  id: z.string(),
  url: z.string().optional(),
  title: z.string().optional(),
  content_html: z.string(),
  content_text: z.string(),
  date_published: z.string(),
  _service: z.object({
    entry_id: z.number().int(),
    selection_start: z.number().int().nullable(),
    selection_end: z.number().int().nullable(),
  }),
});

export const highlightFeedSchema = z.object({
  version: z.literal('https://jsonfeed.org/version/1.1'),
  title: z.string(),
  feed_url: z.string(),
  next_url: z.string().optional(),
  items: z.array(highlightItem),
});

/** An extracted article, in the shape of Feedbin's extract service (docs/api/reader.md "Extracted content"). */
export const extractSchema = z.object({
  title: z.string().nullable(),
  author: z.string().nullable(),
  date_published: z.string(),
  dek: z.null(),
  lead_image_url: z.null(),
  content: z.string(),
  next_page_url: z.null(),
  url: z.string(),
  domain: z.string().nullable(),
  excerpt: z.string(),
  word_count: z.number().int(),
  direction: z.literal('ltr'),
  total_pages: z.literal(1),
  rendered_pages: z.literal(1),
});
