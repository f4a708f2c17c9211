// The webmention service's environment: the base variables, its port, the operator token of its admin
// API (blocked source hosts) and the limits of receiving, verifying and sending. services/webmention/
// README.md describes each variable.
import { z } from 'zod';
import { adminTokenVar, baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

export const webmentionConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('webmention'),
  /** Bearer token of the operator API (/admin/webmention/blocks); the API answers 403 while unset. */
  MURMUR_ADMIN_TOKEN: adminTokenVar().optional(),
  /** Accepted POST /webmention per source host per hour (docs/security.md, rate limits). */
  WEBMENTION_PER_SOURCE_HOST_PER_HOUR: envVar.int({ min: 1, max: 1_000_000_000 }).default(30),
  /** POST /webmention per client address per hour. */
  WEBMENTION_PER_IP_PER_HOUR: envVar.int({ min: 1, max: 1_000_000_000 }).default(120),
  /** GET /webmention per client address per minute. */
  WEBMENTION_READS_PER_IP_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000_000 }).default(300),
  /** Verifications one process runs at once. */
  WEBMENTION_VERIFY_CONCURRENCY: envVar.int({ min: 1, max: 256 }).default(8),
  /** Outgoing webmention deliveries one process runs at once. */
  WEBMENTION_SEND_CONCURRENCY: envVar.int({ min: 1, max: 256 }).default(4),
});

export type WebmentionConfig = z.output<typeof webmentionConfigSchema>;
