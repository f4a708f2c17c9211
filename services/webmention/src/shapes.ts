// Response shapes of the JSON routes other than GET /webmention (whose three formats are written once
// in domain/mention-json.ts and sent as cached text, see routes/query.ts).
import { z } from 'zod';
import { MENTION_STATUSES } from './store/index.js';

const author = z.object({
  name: z.string().optional(),
  url: z.string().optional(),
  photo: z.string().optional(),
});

export const mineSchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int().nullable(),
      source: z.string(),
      target: z.string(),
      status: z.enum(MENTION_STATUSES),
      visible: z.boolean(),
      type: z.string().optional(),
      url: z.string().optional(),
      author: author.optional(),
      published: z.string().optional(),
      last_error: z.string().optional(),
      updated_at: z.string(),
    }),
  ),
});

export const blocksSchema = z.object({
  blocks: z.array(z.object({ host: z.string(), created_at: z.string() })),
});

export const blockedSchema = z.object({ host: z.string() });
