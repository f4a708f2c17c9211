// Response shapes of the archive's endpoints (docs/api/archive.md), written once.
import { z } from 'zod';

export const itemSchema = z.object({
  id: z.string(),
  url: z.string().optional(),
  title: z.string().optional(),
  content_html: z.string(),
  content_text: z.string(),
  date_published: z.string(),
  date_modified: z.string().optional(),
  tags: z.array(z.string()).optional(),
  image: z.string().optional(),
});

export const feedSchema = z.object({
  version: z.string(),
  title: z.string(),
  home_page_url: z.string().optional(),
  feed_url: z.string(),
  next_url: z.string().optional(),
  items: z.array(itemSchema),
});

export const yearsSchema = z.array(z.number().int());

export const importSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'complete', 'failed']),
  imported: z.number().int(),
  skipped: z.number().int(),
  error: z.string().nullable(),
});

export const importAcceptedSchema = z.object({ id: z.string(), status: z.literal('queued') });
