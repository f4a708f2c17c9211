// Publishing's environment: the base variables, its port, and its own limits. docs/configuration.md
// ("Publishing") and services/publishing/README.md describe each variable.
import { z } from 'zod';
import { baseConfigShape, envVar, serviceConfigShape, websubHubUrlVar } from '@murmur/core';

/** What 36 MiB of base64 (the /xmlrpc body limit) can decode to: the media limit cannot usefully exceed it. */
export const MAX_DECODED_MEDIA_BYTES = 27 * 1024 * 1024;

export const publishingConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('publishing'),
  /** Bearer token of the operator API (/admin/sites); the API answers 403 while unset. Shared with identity. */
  MURMUR_ADMIN_TOKEN: z
    .string()
    .trim()
    .min(16, { error: 'must be at least 16 characters (use a long random string)' })
    .optional(),
  /** Largest decoded media object newMediaObject accepts (bytes); larger → fault 413. */
  MEDIA_MAX_BYTES: envVar.int({ min: 1024, max: MAX_DECODED_MEDIA_BYTES }).default(25_000_000),
  /** Failed XML-RPC logins per (username, client address) in 15 minutes before HTTP 429. */
  XMLRPC_FAILED_LOGINS_PER_15_MINUTES: envVar.int({ min: 1, max: 100_000 }).default(10),
  /** XML-RPC calls per user per minute before HTTP 429. */
  XMLRPC_CALLS_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(120),
  /** Micropub requests (both endpoints) per user per minute before HTTP 429. */
  MICROPUB_REQUESTS_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(120),
  /** Public GETs (site pages, feeds, media) per client address per minute. */
  PUBLIC_GETS_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(300),
  /** The WebSub hub feed.xml and feed.json advertise (unset: `{PUBLIC_URL}/websub`; empty: none). */
  WEBSUB_HUB_URL: websubHubUrlVar(),
});

export type PublishingConfig = z.output<typeof publishingConfigSchema>;
