// The feeds service's environment: the base variables, its port, the operator token of its admin
// API (blogroll opt-in) and the limits of its page-fetching jobs. services/feeds/README.md and
// docs/configuration.md describe each variable.
import { z } from 'zod';
import { baseConfigShape, envVar, serviceConfigShape, websubHubUrlVar } from '@murmur/core';

export const feedsConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('feeds'),
  /** Bearer token of the operator API (/admin/blogroll); the API answers 403 while unset. Shared with identity. */
  MURMUR_ADMIN_TOKEN: z
    .string()
    .trim()
    .min(16, { error: 'must be at least 16 characters (use a long random string)' })
    .optional(),
  /** The WebSub hub the public JSON Feeds advertise (unset: `{PUBLIC_URL}/websub`; empty: none). */
  WEBSUB_HUB_URL: websubHubUrlVar(),
  /** Page fetches (bookmark titles, read-later articles) one process runs at once. */
  FEEDS_FETCH_CONCURRENCY: envVar.int({ min: 1, max: 64 }).default(4),
  /** Bookmarks and read-later saves per user per minute. */
  FEEDS_SAVES_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(60),
  /** Users whose list of followed users is kept in memory (checked against the store on every use). */
  FEEDS_FOLLOWING_CACHE_USERS: envVar.int({ min: 1, max: 1_000_000 }).default(10_000),
});

export type FeedsConfig = z.output<typeof feedsConfigSchema>;
