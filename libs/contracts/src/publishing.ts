// What the publishing service announces: posts becoming public, changing and going away (for timelines,
// mentions and photos), and sites (identity keeps `has_site` / `default_site` from these).
import { z } from 'zod';
import { defineEvent, defineRequest } from './bus.js';
import { userIdSchema } from './identity.js';

/** A user named in a post with `@username` who exists. */
export const mentionSchema = z.object({
  userId: userIdSchema,
  username: z.string(),
});
export type Mention = z.infer<typeof mentionSchema>;

/** The public copy of a post, as readers and feeds show it. */
export const publicPostSchema = z.object({
  id: z.number().int().positive(),
  userId: userIdSchema,
  siteId: z.number().int().positive(),
  /** Absolute permalink. */
  url: z.string(),
  /** `""` for a post without a title (a short post). */
  title: z.string(),
  /** Sanitised HTML. */
  contentHtml: z.string(),
  contentText: z.string(),
  /** Offset form, e.g. `2026-11-21T08:30:00+00:00`. */
  publishedAt: z.string(),
  /** Absolute URLs of the `<img>` elements of the body, in order. */
  photos: z.array(z.string()),
  mentions: z.array(mentionSchema),
  /** Category names. */
  categories: z.array(z.string()),
  /**
   * Grows with every change of the post; a consumer keeps a copy only when the event's revision is newer
   * than the one it has (`applyIfNewer`). Absent in events recorded before revisions were sent.
   */
  revision: z.number().int().positive().optional(),
});
export type PublicPost = z.infer<typeof publicPostSchema>;

/** A post became public: created published, published from a draft, or published by the scheduler. */
export const postPublished = defineEvent('publishing', 'post', 'published', publicPostSchema);
/** A public post was edited and stays public. */
export const postUpdated = defineEvent('publishing', 'post', 'updated', publicPostSchema);
/** A public post is no longer public (deleted, back to draft, or moved to a future date); its last public copy. */
export const postDeleted = defineEvent('publishing', 'post', 'deleted', publicPostSchema);

export const siteSchema = z.object({
  id: z.number().int().positive(),
  userId: userIdSchema,
  username: z.string(),
  /** The site's own host when it has one, else the host of the public URL. */
  host: z.string(),
  /** Absolute URL of the home page, ending in `/`. */
  url: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  /** The site's name as its pages show it (optional: events from older versions lack it). */
  title: z.string().optional(),
  /** A line describing the site, when it has one. */
  description: z.string().optional(),

  /** Grows with every change of the site (see publicPostSchema.revision). */
  revision: z.number().int().positive().optional(),
});
export type Site = z.infer<typeof siteSchema>;

/** A site was created (every user gets a default site when the account is created). */
export const siteCreated = defineEvent('publishing', 'site', 'created', z.object({ site: siteSchema }));
/** A site's host (and so its URL) changed. */
export const siteUpdated = defineEvent('publishing', 'site', 'updated', z.object({ site: siteSchema }));

/** One site by id, for services that check who owns a site (archive imports). Unknown id → 404. */
export const siteGet = defineRequest(
  'publishing',
  'site',
  'get',
  z.object({ siteId: z.number().int().positive() }),
  z.object({ site: siteSchema }),
);

/**
 * The site a URL belongs to: the site on the URL's own host, else the default site whose address
 * (`{PUBLIC_URL}/sites/{username}/`) the URL is under; null when it is none of ours. The webmention
 * service asks this for a target of a site it has not heard of (one created before it was deployed).
 */
export const siteAt = defineRequest(
  'publishing',
  'site',
  'at',
  z.object({ url: z.string().min(1).max(2048) }),
  z.object({ site: siteSchema.nullable() }),
);
