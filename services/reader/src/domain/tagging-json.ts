// Taggings and tags as clients see them, typed by the routes' response schemas.
import type { z } from 'zod';
import type { tagSchema, taggingSchema } from '../shapes.js';
import type { TagDoc, TaggingDoc } from '../store/index.js';

export const taggingJson = (t: TaggingDoc): z.input<typeof taggingSchema> => ({
  id: t._id,
  feed_id: t.feedId,
  name: t.name,
});

export const tagJson = (t: TagDoc): z.input<typeof tagSchema> => ({ id: t._id, name: t.name });
